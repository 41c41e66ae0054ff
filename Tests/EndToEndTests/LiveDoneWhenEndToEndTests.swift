import Foundation
import PauseCamTestHelpers
import PauseCamTestSupport
import XCTest

/// A clip recorded with a pause, a retake and lens switches while the program streams to an SRT listener (the real
/// `ffmpeg`) and an RTMP server (nginx with its RTMP module), both on loopback, through the built binary.
///
/// Two clocks, because a stream is real network I/O:
/// - On the simulated clock the session runs faster than real time, so the destinations connect late and lose what
///   their queues cannot hold (what they receive there is not checked); but the recording must not notice them: it is
///   identical, frame for frame and sample for sample (`ffmpeg -f framemd5`), and in chapters, to the same script
///   recorded without `live:`.
/// - On the real clock (`--clock real`, an 8 s script) each received stream has every second of the session, pauses
///   included, with no hole; its lens colours switch where the script switched them; every sync flash has its beep
///   within one frame. Two real-clock recordings are never bit-identical (where a command lands on the frame grid
///   depends on when it ran), so there the recording made while streaming is compared with one made without: the
///   same frame count and chapters to a frame per scene edge, the same lenses in the same order, each switch within 2 frames.
final class LiveDoneWhenEndToEndTests: XCTestCase {
    private static let ffmpeg = "/usr/bin/ffmpeg"
    private static let frame = 1.0 / 30

    /// Green main, red wide, blue tele. Live: main 0–2 s, wide 2–4 s (recorded 2–3, paused 3–4), tele 4–7 s (paused,
    /// then recorded 5–6 and thrown away by the retake, recorded again 6–7), main 7–8 s.
    private static func rig(directory: String, live: String?) -> String {
        """
        name: Live done
        output: {directory: \(directory)/out, container: mov, size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#d03030"}, size: 320x180, fps: 30}
          main: {zoom: 1, virtual: {color: "#20c040"}, size: 320x180, fps: 30}
          tele: {zoom: 2, virtual: {color: "#3040d0"}, size: 320x180, fps: 30}
        default_lens: main
        \(live ?? "")
        scripts:
          s: [wait 1s, record, wait 1s, lens wide, wait 1s, pause, wait 1s, lens tele, wait 1s, resume, wait 1s, retake, wait 1s, lens main, wait 1s, stop]
        """
    }

    /// The receivers: an SRT listener writing `received.ts` and nginx recording RTMP into `KEY2.flv`, both
    /// listening before this returns. Skips when nginx or its RTMP module is missing or cannot start.
    private struct Receivers {
        let srt: Process
        let nginx: RTMPServerProcess
        let srtFile: String
        let rtmpFile: String
        let live: String

        init(directory: String) throws {
            guard FileManager.default.isExecutableFile(atPath: LiveDoneWhenEndToEndTests.ffmpeg) else {
                throw XCTSkip("\(LiveDoneWhenEndToEndTests.ffmpeg) is not installed (ffmpeg)")
            }
            let srtPort = Int.random(in: 20_000...40_000)
            let folder = directory + "/nginx"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            nginx = try RTMPServerProcess.forTest(folder: folder)
            let rtmpPort = nginx.port
            srtFile = directory + "/received.ts"
            rtmpFile = nginx.recording(key: "KEY2")
            srt = try SRTListenerProcess.forTest(port: srtPort, file: srtFile)
            XCTAssertTrue(Self.waitUntilListening(port: srtPort, table: "/proc/net/udp", state: nil),
                          "the SRT listener did not bind its port")
            live = """
            live:
              stream:
                - {url: "srt://127.0.0.1:\(srtPort)?streamid=KEY1", name: srt, bitrate: 500k}
                - {url: "rtmp://127.0.0.1:\(rtmpPort)/live/KEY2", name: rtmp, bitrate: 500k}
            """
        }

        /// Waits for the SRT listener to end with its stream, then stops nginx (which closes its recording).
        func finish() {
            let end = Date().addingTimeInterval(20)
            while srt.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
            XCTAssertFalse(srt.isRunning, "the SRT listener did not end with the stream")
            stop()
        }

        func stop() {
            if srt.isRunning { srt.terminate() }
            nginx.stop()
        }

        /// Whether a socket is bound to loopback `port` in the kernel's table (`state` "0A": TCP LISTEN), within 10 s.
        static func waitUntilListening(port: Int, table: String, state: String?) -> Bool {
            let local = String(format: "0100007F:%04X", port)
            let end = Date().addingTimeInterval(10)
            while Date() < end {
                let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
                let found = text.split(separator: "\n").contains { line in
                    let fields = line.split(separator: " ")
                    return fields.count > 3 && fields[1] == local && (state.map { fields[3] == $0 } ?? true)
                }
                if found { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
    }

    /// Runs the script of `rig` and returns the one movie it saved, with the run's output.
    private func record(_ rig: String, in directory: String, clock: String) throws -> (movie: String, output: String) {
        let path = directory + "/rig.yaml"
        try rig.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", path, "--script", "s", "--clock", clock])
        let output = result.stdoutText + result.stderr
        XCTAssertEqual(result.status, 0, output)
        XCTAssertTrue(output.contains("0 dropped frame(s)"), output)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/out")
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "no movie in \(names)")
        return (directory + "/out/" + movie, output)
    }

    /// One MD5 per decoded frame (video) or packet of samples (audio) of `map`.
    private func frameChecksums(_ movie: String, map: String) throws -> [String] {
        let result = try ProcessRunner.run(Self.ffmpeg, ["-v", "error", "-i", movie, "-map", map, "-f", "framemd5", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    private func chapters(_ movie: String) throws -> [String] {
        try MediaProbe(path: movie).chapters().map { "\($0.title ?? "?") \($0.startTime)-\($0.endTime)" }
    }

    /// The mean RGB of a rectangle of every decoded frame, one per frame as stored: `-fps_mode passthrough`, since
    /// ffmpeg's default for raw output evens out the millisecond timestamps of FLV by duplicating a frame, which
    /// would put every colour one frame off the frame times ffprobe lists.
    private static func regionColors(_ file: String, x: Int, y: Int, width: Int, height: Int) throws -> [(Int, Int, Int)] {
        let result = try ProcessRunner.run(ffmpeg, [
            "-v", "error", "-i", file, "-map", "0:v:0", "-fps_mode", "passthrough",
            "-vf", "crop=\(width):\(height):\(x):\(y),scale=1:1:flags=area", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let bytes = [UInt8](result.stdout)
        return stride(from: 0, to: bytes.count - 2, by: 3).map { (Int(bytes[$0]), Int(bytes[$0 + 1]), Int(bytes[$0 + 2])) }
    }

    /// Presentation times of the frames whose top-left sync flash is white.
    private static func flashes(_ probe: MediaProbe) throws -> [Double] {
        let times = try probe.videoFrames().map(\.time)
        let colours = try regionColors(probe.path, x: 2, y: 2, width: 16, height: 16)
        XCTAssertEqual(colours.count, times.count, probe.path)
        return colours.enumerated()
            .filter { $0.element.0 > 180 && $0.element.1 > 180 && $0.element.2 > 180 && $0.offset < times.count }
            .map { times[$0.offset] }
    }

    /// Each frame's lens by the colour of a patch clear of the flash, the square and the bar: G, R, B or "?".
    private static func lenses(_ probe: MediaProbe) throws -> [Character] {
        try regionColors(probe.path, x: 280, y: 20, width: 8, height: 8).map { red, green, blue in
            if green > 150 && red < 100 && blue < 110 { return "G" }
            if red > 150 && green < 100 && blue < 100 { return "R" }
            if blue > 150 && red < 100 && green < 110 { return "B" }
            return "?"
        }
    }

    /// The colour runs: each lens and the index of its first frame.
    private static func runs(_ lenses: [Character]) -> [(lens: Character, first: Int)] {
        var runs: [(lens: Character, first: Int)] = []
        for (index, lens) in lenses.enumerated() where runs.last?.lens != lens { runs.append((lens, index)) }
        return runs
    }

    func testOnTheSimulatedClockTheRecordingIsIdenticalWithAndWithoutStreaming() throws {
        let directory = try ProcessRunner.temporaryDirectory("live-done-simulated").path
        let receivers = try Receivers(directory: directory)
        defer { receivers.stop() }
        try FileManager.default.createDirectory(atPath: directory + "/plain", withIntermediateDirectories: true)
        let streamed = try record(Self.rig(directory: directory, live: receivers.live), in: directory, clock: "simulated")
        XCTAssertTrue(streamed.output.contains("LIVE srt: sending"), streamed.output)
        let plain = try record(Self.rig(directory: directory + "/plain", live: nil), in: directory + "/plain",
                               clock: "simulated")

        let video = try frameChecksums(streamed.movie, map: "0:v:0")
        XCTAssertEqual(video.count, 120, "4 s recorded")
        XCTAssertEqual(video, try frameChecksums(plain.movie, map: "0:v:0"), "the pictures differ")
        XCTAssertEqual(try frameChecksums(streamed.movie, map: "0:a:0"), try frameChecksums(plain.movie, map: "0:a:0"),
                       "the sound differs")
        XCTAssertEqual(try chapters(streamed.movie), ["Scene 1 0.000000-2.000000", "Scene 2 2.000000-4.000000"])
        XCTAssertEqual(try chapters(streamed.movie), try chapters(plain.movie))
    }

    func testOnTheRealClockEachReceivedStreamHasTheWholeSessionItsSwitchesAndSound() throws {
        let directory = try ProcessRunner.temporaryDirectory("live-done-real").path
        let receivers = try Receivers(directory: directory)
        defer { receivers.stop() }
        try FileManager.default.createDirectory(atPath: directory + "/plain", withIntermediateDirectories: true)
        let streamed = try record(Self.rig(directory: directory, live: receivers.live), in: directory, clock: "real")
        receivers.finish()
        XCTAssertTrue(streamed.output.contains("LIVE srt: sending"), streamed.output)
        XCTAssertTrue(streamed.output.contains("LIVE rtmp: sending"), streamed.output)
        XCTAssertFalse(streamed.output.contains("KEY1") || streamed.output.contains("KEY2"), streamed.output)
        let plain = try record(Self.rig(directory: directory + "/plain", live: nil), in: directory + "/plain", clock: "real")

        // The recording: what it would be without streaming, to the frame grid's jitter on the real clock.
        let recorded = MediaProbe(path: streamed.movie), alone = MediaProbe(path: plain.movie)
        // A command lands on the frame grid where its wall-clock moment falls, so each scene may gain or lose one frame.
        let recordedFrames = try recorded.videoFrames().count, aloneFrames = try alone.videoFrames().count
        XCTAssertEqual(Double(recordedFrames), 120, accuracy: 2, "4 s recorded, to a frame per scene edge")
        XCTAssertEqual(Double(recordedFrames), Double(aloneFrames), accuracy: 2, "the same clip without streaming")
        let streamedChapters = try MediaProbe(path: streamed.movie).chapters()
        let plainChapters = try MediaProbe(path: plain.movie).chapters()
        XCTAssertEqual(streamedChapters.map { $0.title ?? "?" }, ["Scene 1", "Scene 2"])
        XCTAssertEqual(streamedChapters.map { $0.title ?? "?" }, plainChapters.map { $0.title ?? "?" })
        for (chapter, expected) in zip(streamedChapters, [(0.0, 2.0), (2.0, 4.0)]) {
            XCTAssertEqual(chapter.start, expected.0, accuracy: 2 * Self.frame + 0.001, "\(streamedChapters)")
            XCTAssertEqual(Double(chapter.endTime) ?? -1, expected.1, accuracy: 2 * Self.frame + 0.001, "\(streamedChapters)")
        }
        let recordedRuns = Self.runs(try Self.lenses(recorded)), aloneRuns = Self.runs(try Self.lenses(alone))
        XCTAssertEqual(recordedRuns.map(\.lens), ["G", "R", "B", "G"], "\(recordedRuns)")
        XCTAssertEqual(recordedRuns.map(\.lens), aloneRuns.map(\.lens), "\(recordedRuns) \(aloneRuns)")
        for (with, without) in zip(recordedRuns, aloneRuns) {
            XCTAssertLessThanOrEqual(abs(with.first - without.first), 2, "\(recordedRuns) \(aloneRuns)")
        }

        for file in [receivers.srtFile, receivers.rtmpFile] {
            let probe = MediaProbe(path: file)
            let streams = try probe.streams()
            XCTAssertEqual(Set(streams.map { "\($0.codecType) \($0.codecName ?? "")" }), ["video h264", "audio aac"], file)
            // Every second of the 8 s session, pauses included, within a second, and no hole anywhere.
            let times = try probe.videoFrames().map(\.time)
            let span = (times.last ?? 0) - (times.first ?? 0) + Self.frame
            XCTAssertGreaterThanOrEqual(span, 7, "\(file): \(times.count) frames")
            XCTAssertLessThanOrEqual(span, 9.5, "\(file): \(times.count) frames")
            XCTAssertGreaterThanOrEqual(times.count, 210, file)
            let widestGap = zip(times.dropFirst(), times).map { $0 - $1 }.max() ?? 0
            XCTAssertLessThanOrEqual(widestGap, 2 * Self.frame + 0.001, "\(file): a hole of \(widestGap) s")

            // The lenses as the script switched them: wide 2 s (1 recorded, 1 paused), tele 3 s (paused, recorded,
            // retaken), then main again.
            let runs = Self.runs(try Self.lenses(probe))
            XCTAssertEqual(runs.map(\.lens), ["G", "R", "B", "G"], "\(file): \(runs)")
            if runs.count == 4 {
                let switches = runs.map { times[min($0.first, times.count - 1)] }
                XCTAssertEqual(switches[2] - switches[1], 2, accuracy: 2 * Self.frame + 0.001, "\(file): \(switches)")
                XCTAssertEqual(switches[3] - switches[2], 3, accuracy: 2 * Self.frame + 0.001, "\(file): \(switches)")
                XCTAssertGreaterThanOrEqual(switches[1] - switches[0], 1, "\(file): main before wide, \(switches)")
            }

            // Sound in sync: every flash has its beep within one frame, in the stream's own times.
            let flashes = try Self.flashes(probe)
            let audioStart = Double(streams.first { $0.codecType == "audio" }?.startTime ?? "") ?? 0
            let beeps = RecordingEndToEndTests.beepOnsets(try probe.audioSamples()).map { $0 + audioStart }
            XCTAssertGreaterThanOrEqual(flashes.count, 7, "\(file): flashes \(flashes)")
            for flash in flashes {
                XCTAssertTrue(beeps.contains { abs($0 - flash) <= Self.frame },
                              "\(file): flash at \(flash) has no beep; beeps \(beeps)")
            }
        }
    }
}
