import Foundation
import PauseCamCore
import PauseCamTestHelpers
import PauseCamTestSupport
import XCTest
@testable import PauseCamSystem

/// `StreamOutput` against real receivers on loopback: the `ffmpeg` command as an SRT listener (what a streaming
/// server does with an SRT push), the received stream checked with ffprobe and ffmpeg: frames at the rate, sound,
/// the colours switching at the frame they switched at, and a receiver that goes away and comes back.
final class StreamOutputTests: XCTestCase {
    typealias F = MovieWriterFixture

    /// The events an output told, in order, from its thread.
    final class Events: @unchecked Sendable {
        private let events = Guarded<[EngineEvent]>([])
        func record(_ event: EngineEvent) { events.withLock { $0.append(event) } }
        var all: [EngineEvent] { events.withLock { $0 } }
        func count(where test: (EngineEvent) -> Bool) -> Int { all.filter(test).count }
    }

    /// An `ffmpeg` receiving an SRT push on `port` into `file`; it ends when the sender closes.
    static func srtListener(port: Int, file: String) throws -> Process {
        try SRTListenerProcess.forTest(port: port, file: file)
    }

    /// Waits until `condition` holds, at most `seconds`.
    static func wait(seconds: Double, _ what: String, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > end { XCTFail("gave up waiting for \(what)"); return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// Red in limited-range BT.601 (Y, U, V).
    static let red: (UInt8, UInt8, UInt8) = (81, 90, 240)
    static let blue: (UInt8, UInt8, UInt8) = (41, 240, 110)

    /// Feeds `output` like the engine does, paced by the clock as a camera is: frame `i` at `i`/30 s of live time
    /// with 1/30 s of sound, red before frame `switchAt` and blue from it, until `stop` says so.
    final class Feeder: @unchecked Sendable {
        let stopped = Guarded(false)
        let sent = Guarded(0)
        func run(_ output: StreamOutput, switchAt: Int, width: Int, height: Int) {
            let start = DispatchTime.now().uptimeNanoseconds
            var index = 0
            while !stopped.withLock({ $0 }) {
                let due = start + UInt64(index) * 1_000_000_000 / 30
                let now = DispatchTime.now().uptimeNanoseconds
                if now < due { Thread.sleep(forTimeInterval: Double(due - now) / 1e9) }
                let color = index < switchAt ? StreamOutputTests.red : StreamOutputTests.blue
                let time = MediaTime(value: Int64(index), timescale: 30)
                output.appendVideo(F.solidFrame(width: width, height: height, y: color.0, u: color.1, v: color.2,
                                                pts: time), at: time)
                output.appendAudio(F.audioChunk(index: index))
                index += 1
                sent.withLock { $0 = index }
            }
        }
    }

    /// The received video's frames, each as a 2×2 picture's mean U and V.
    static func chroma(_ file: String) throws -> [(u: UInt8, v: UInt8)] {
        // Passthrough: FLV's millisecond timestamps must not make ffmpeg duplicate or drop frames for a constant rate.
        let (out, _) = try F.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:v:0", "-fps_mode", "passthrough",
                                            "-vf", "scale=2:2", "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"])
        let bytes = [UInt8](out)
        return stride(from: 0, to: bytes.count - 5, by: 6).map { (bytes[$0 + 4], bytes[$0 + 5]) }
    }

    private func port() -> Int { Int.random(in: 20_000...60_000) }

    func testAnSRTListenerReceivesTheProgramWithSoundAtItsRateAndTheSwitchWhereItWas() throws {
        let folder = try F.directory("stream-srt")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = port(), file = folder + "/received.ts"
        let listener = try Self.srtListener(port: port, file: file)
        defer { if listener.isRunning { listener.terminate() } }
        let events = Events()
        let url = try StreamURL.parse("srt://127.0.0.1:\(port)?streamid=SECRET").get()
        let output = StreamOutput(settings: StreamOutput.Settings(
            url: url, name: "local", width: 160, height: 90, rate: FrameRate(30), bitrate: 400_000,
            audioBitrate: 96_000, audioSampleRate: 48_000, audioChannels: 1), report: events.record)
        guard Self.wait(seconds: 30, "the output to connect", { output.statistics.live }) else { output.close(); return }
        let feeder = Feeder()
        let thread = Thread { feeder.run(output, switchAt: 60, width: 160, height: 90) }
        thread.start()
        _ = Self.wait(seconds: 30, "4 s of frames sent") { feeder.sent.withLock { $0 } >= 120 }
        feeder.stopped.withLock { $0 = true }
        _ = Self.wait(seconds: 5, "the feeder to stop") { feeder.sent.withLock { $0 } >= 120 }
        let sent = feeder.sent.withLock { $0 }
        let dropped = output.statistics.droppedFrames
        output.close()
        _ = Self.wait(seconds: 20, "the listener to end with the stream") { !listener.isRunning }

        let first = try XCTUnwrap(events.all.first)
        guard case .liveStarted(let name, let address) = first else { return XCTFail("first event: \(first)") }
        XCTAssertEqual(name, "local")
        XCTAssertEqual(address, "srt://127.0.0.1:\(port)/…")
        for event in events.all { XCTAssertFalse("\(event)".contains("SECRET"), "a secret in \(event)") }

        let streams = try F.probe(file, ["-show_entries", "stream=codec_type,codec_name,avg_frame_rate"])["streams"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(Set(streams.compactMap { $0["codec_type"] as? String }), ["video", "audio"], "\(streams)")
        XCTAssertEqual(streams.first { $0["codec_type"] as? String == "video" }?["avg_frame_rate"] as? String, "30/1")
        XCTAssertEqual(streams.first { $0["codec_type"] as? String == "audio" }?["codec_name"] as? String, "aac")
        let frames = try Self.chroma(file)
        XCTAssertEqual(frames.count, sent - dropped, "every frame sent and not dropped arrived")
        // Red (V high) up to the switch, blue (U high) from it; with no drop the switch is at frame 60 exactly.
        let firstBlue = try XCTUnwrap(frames.firstIndex { $0.u > 180 && $0.v < 160 }, "no blue frame")
        XCTAssertTrue(frames[..<firstBlue].allSatisfy { $0.v > 180 && $0.u < 140 }, "a frame before the switch is not red")
        XCTAssertTrue(frames[firstBlue...].allSatisfy { $0.u > 180 }, "a frame after the switch is not blue")
        if dropped == 0 { XCTAssertEqual(firstBlue, 60, "\(frames.count) frames") }
    }

    func testAReceiverThatGoesAwayIsTriedAgainAndTheStreamComesBackByItself() throws {
        let folder = try F.directory("stream-srt-back")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = port()
        var listener = try Self.srtListener(port: port, file: folder + "/first.ts")
        defer { if listener.isRunning { listener.terminate() } }
        let events = Events()
        let url = try StreamURL.parse("srt://127.0.0.1:\(port)").get()
        let output = StreamOutput(settings: StreamOutput.Settings(
            url: url, name: "local", width: 160, height: 90, rate: FrameRate(30), bitrate: 400_000,
            audioBitrate: 96_000, audioSampleRate: 48_000, audioChannels: 1), report: events.record)
        defer { output.close() }
        let feeder = Feeder()
        let thread = Thread { feeder.run(output, switchAt: 1_000_000, width: 160, height: 90) }
        thread.start()
        defer { feeder.stopped.withLock { $0 = true } }
        guard Self.wait(seconds: 30, "the output to connect", { output.statistics.live }) else { return }
        // The receiver dies without a word, as a crashed server or a pulled cable does.
        kill(listener.processIdentifier, SIGKILL)
        listener.waitUntilExit()
        guard Self.wait(seconds: 40, "the loss to be told", {
            events.count { if case .liveLost = $0 { return true } else { return false } } > 0
        }) else { return }
        XCTAssertFalse(output.statistics.live)
        let second = folder + "/second.ts"
        listener = try Self.srtListener(port: port, file: second)
        guard Self.wait(seconds: 60, "the stream to come back", {
            events.count { if case .liveBack = $0 { return true } else { return false } } > 0
        }) else { return }
        XCTAssertTrue(output.statistics.live)
        XCTAssertEqual(output.statistics.outages, 1)
        let before = feeder.sent.withLock { $0 }
        _ = Self.wait(seconds: 30, "2 s more of frames") { feeder.sent.withLock { $0 } >= before + 60 }
        feeder.stopped.withLock { $0 = true }
        output.close()
        _ = Self.wait(seconds: 20, "the second listener to end with the stream") { !listener.isRunning }
        XCTAssertGreaterThan(try Self.chroma(second).count, 30, "the second receiver got the stream")
    }

    func testAnRTMPServerReceivesTheProgramWithSoundAndTheSwitchWhereItWas() throws {
        let folder = try F.directory("stream-rtmp")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try RTMPServerProcess.forTest(folder: folder)
        defer { server.stop() }
        let events = Events()
        let url = try StreamURL.parse("rtmp://127.0.0.1:\(server.port)/live/SECRETKEY").get()
        let output = StreamOutput(settings: StreamOutput.Settings(
            url: url, name: "rtmp", width: 160, height: 90, rate: FrameRate(30), bitrate: 400_000,
            audioBitrate: 96_000, audioSampleRate: 48_000, audioChannels: 1), report: events.record)
        guard Self.wait(seconds: 30, "the output to connect", { output.statistics.live }) else {
            output.close()
            return
        }
        let feeder = Feeder()
        let thread = Thread { feeder.run(output, switchAt: 60, width: 160, height: 90) }
        thread.start()
        _ = Self.wait(seconds: 30, "4 s of frames sent") { feeder.sent.withLock { $0 } >= 120 }
        feeder.stopped.withLock { $0 = true }
        let sent = feeder.sent.withLock { $0 }
        let dropped = output.statistics.droppedFrames
        output.close()
        server.stop()
        for event in events.all { XCTAssertFalse("\(event)".contains("SECRETKEY"), "the key in \(event)") }
        XCTAssertEqual(output.liveStatus.name, "rtmp")

        let file = server.recording(key: "SECRETKEY")
        let streams = try F.probe(file, ["-show_entries", "stream=codec_type,codec_name,avg_frame_rate"])["streams"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(Set(streams.compactMap { $0["codec_type"] as? String }), ["video", "audio"], "\(streams)")
        XCTAssertEqual(streams.first { $0["codec_type"] as? String == "audio" }?["codec_name"] as? String, "aac")
        let frames = try Self.chroma(file)
        // A frame still in the feeder's hand at the stop may or may not have gone: at most one more.
        XCTAssertLessThanOrEqual(abs(frames.count - (sent - dropped)), 1, "the frames sent arrived")
        let firstBlue = try XCTUnwrap(frames.firstIndex { $0.u > 180 && $0.v < 160 }, "no blue frame")
        XCTAssertTrue(frames[..<firstBlue].allSatisfy { $0.v > 180 && $0.u < 140 }, "a frame before the switch is not red")
        if dropped == 0 { XCTAssertEqual(firstBlue, 60, "\(frames.count) frames") }
    }

    /// Settings for a small stream to `url`, named `name`.
    private static func settings(_ url: StreamURL, name: String) -> StreamOutput.Settings {
        StreamOutput.Settings(url: url, name: name, width: 160, height: 90, rate: FrameRate(30), bitrate: 400_000,
                              audioBitrate: 96_000, audioSampleRate: 48_000, audioChannels: 1)
    }

    private static func isLost(_ event: EngineEvent) -> Bool { if case .liveLost = event { true } else { false } }
    private static func isBack(_ event: EngineEvent) -> Bool { if case .liveBack = event { true } else { false } }
    private static func isStarted(_ event: EngineEvent) -> Bool {
        if case .liveStarted = event { true } else { false }
    }

    func testADestinationThatNeverConnectedSaysItIsLostWhyAndWhenItTriesAgain() throws {
        // Nothing listens on the port: the attempt is refused at once, and the next one is far away.
        let port = try MosquittoProcess.freeLoopbackPort()
        let url = try StreamURL.parse("rtmp://127.0.0.1:\(port)/live/SECRETKEY").get()
        let events = Events()
        let output = StreamOutput(settings: Self.settings(url, name: "studio"), retry: LiveRetryPolicy(first: .seconds(30)),
                                  report: events.record)
        defer { output.close() }
        guard Self.wait(seconds: 30, "the first attempt to fail", { events.count(where: Self.isLost) > 0 }) else { return }
        let status = output.liveStatus
        XCTAssertFalse(status.live)
        XCTAssertEqual(status.outages, 1, "a destination that never connected is lost, not connecting")
        XCTAssertTrue(status.lostReason?.contains("Connection refused") ?? false, "\(String(describing: status.lostReason))")
        XCTAssertTrue(status.summary.hasPrefix("live studio lost (Connection refused), retrying in "), status.summary)
        XCTAssertTrue(status.summary.hasSuffix(" s"), status.summary)
        XCTAssertFalse(status.summary.contains("SECRETKEY"), status.summary)
        let retryIn = try XCTUnwrap(status.retryIn)
        XCTAssertGreaterThan(retryIn, .zero)
        XCTAssertLessThanOrEqual(retryIn, .seconds(30))
        output.setOn(false)
        XCTAssertTrue(Self.wait(seconds: 10, "off to clear the loss") { output.liveStatus.lostReason == nil })
        XCTAssertEqual(output.liveStatus.summary, "live studio off")
    }

    func testADestinationTurnedOffWhileLostStartsFreshWhenTurnedOnAgain() throws {
        let folder = try F.directory("stream-rtmp-off-on")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let port = try MosquittoProcess.freeLoopbackPort()
        let url = try StreamURL.parse("rtmp://127.0.0.1:\(port)/live/KEY").get()
        let events = Events()
        let output = StreamOutput(settings: Self.settings(url, name: "studio"),
                                  retry: LiveRetryPolicy(first: .milliseconds(200)), report: events.record)
        defer { output.close() }
        guard Self.wait(seconds: 30, "the first attempt to fail", { events.count(where: Self.isLost) > 0 }) else { return }
        output.setOn(false)
        // The server comes up while the destination is off; the outage ended when it was turned off.
        let server = try RTMPServerProcess.forTest(port: port, folder: folder)
        defer { server.stop() }
        output.setOn(true)
        guard Self.wait(seconds: 30, "the destination to send", {
            events.count(where: Self.isStarted) + events.count(where: Self.isBack) > 0
        }) else { return }
        XCTAssertEqual(events.count(where: Self.isBack), 0, "no live_back counting the time it was off: \(events.all)")
        XCTAssertEqual(events.count(where: Self.isStarted), 1, "\(events.all)")
        XCTAssertNil(output.liveStatus.lostReason)
        XCTAssertTrue(output.liveStatus.summary.hasPrefix("LIVE studio"), output.liveStatus.summary)
    }
}
