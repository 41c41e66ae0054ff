import Foundation
import PauseCamTestHelpers
import PauseCamTestSupport
import XCTest

/// `live:` through the built binary: `pausecam run` on a virtual rig streams its program to the real `ffmpeg`
/// listening for SRT on loopback, from the rig's start to its end. The received stream has H.264 and AAC and every
/// second of the session — the idle start, the recording, the pause — with the lenses switched where the script
/// switched them; the stream key appears in no output and no sidecar.
final class LiveStreamEndToEndTests: XCTestCase {
    func testARunStreamsItsProgramIdleRecordingAndPausedToAnSRTListener() throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { throw XCTSkip("\(ffmpeg) is not installed (ffmpeg)") }
        let directory = try ProcessRunner.temporaryDirectory("live-srt")
        let port = Int.random(in: 20_000...60_000)
        // Green is main, red is wide: 1 s idle and 1 s recorded on main, wide for 1 s recorded and 1 s paused, main
        // again while still paused and after the resume.
        let rig = """
        name: Live rig
        output: {directory: \(directory.path)/out, size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          wide: {zoom: 0.5, virtual: {color: "#d03030"}, size: 320x180, fps: 30}
          main: {zoom: 1, virtual: {color: "#20c040"}, size: 320x180, fps: 30}
        default_lens: main
        live:
          stream:
            - {url: "srt://127.0.0.1:\(port)?streamid=SECRETKEY", name: local, bitrate: 500k}
        scripts:
          s: [wait 1s, record, wait 1s, lens wide, wait 1s, pause, wait 1s, lens main, wait 1s, resume, wait 1s, stop]
        """
        let path = directory.appendingPathComponent("live.yaml").path
        try rig.write(toFile: path, atomically: true, encoding: .utf8)
        let received = directory.appendingPathComponent("received.ts").path
        let listener = try SRTListenerProcess.forTest(port: port, file: received)
        defer { if listener.isRunning { listener.terminate() } }

        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", path, "--script", "s"])
        let output = result.stdoutText + result.stderr
        XCTAssertEqual(result.status, 0, output)
        XCTAssertTrue(output.contains("LIVE local: sending to srt://127.0.0.1:\(port)/…"), output)
        XCTAssertFalse(output.contains("SECRETKEY"), output)
        let end = Date().addingTimeInterval(20)
        while listener.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertFalse(listener.isRunning, "the listener did not end with the stream")
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/out").filter { $0.hasSuffix(".json") }
        XCTAssertEqual(sidecars.count, 1)
        for sidecar in sidecars {
            let text = try String(contentsOfFile: directory.path + "/out/" + sidecar, encoding: .utf8)
            XCTAssertFalse(text.contains("SECRETKEY"), "the key in the sidecar")
        }

        let probe = try ProcessRunner.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name",
                                                               "-of", "csv=p=0", received])
        XCTAssertEqual(Set(probe.stdoutText.split(separator: "\n").map(String.init)), ["h264,video", "aac,audio"],
                       probe.stdoutText + probe.stderr)
        let pixels = try ProcessRunner.run(ffmpeg, ["-v", "error", "-i", received, "-map", "0:v:0", "-fps_mode", "passthrough",
                                                    "-vf", "scale=2:2", "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"])
        let bytes = [UInt8](pixels.stdout)
        let colours = stride(from: 0, to: bytes.count - 5, by: 6).map { index -> Character in
            let u = bytes[index + 4], v = bytes[index + 5]
            if v > 180 && u < 140 { return "R" }
            if u < 110 && v < 110 { return "G" }
            return "?"
        }
        var runs: [(Character, Int)] = []
        for colour in colours {
            if runs.last?.0 == colour { runs[runs.count - 1].1 += 1 } else { runs.append((colour, 1)) }
        }
        XCTAssertEqual(runs.map(\.0), ["G", "R", "G"], "\(runs)")
        // The session is about 6 s: every second of it went out, pauses included.
        XCTAssertGreaterThanOrEqual(colours.count, 170, "\(runs)")
        // Wide was live for its second recorded and its second paused: two seconds of frames, give or take one.
        if runs.count == 3 { XCTAssertEqual(Double(runs[1].1), 60, accuracy: 2, "\(runs)") }
        // Main came back while paused: more than the 1 s recorded after the resume.
        if runs.count == 3 { XCTAssertGreaterThan(runs[2].1, 55) }
    }
}

/// The receiver dies mid-clip: the stream is told lost, comes back by itself once a receiver listens again, and the
/// recording never notices — no dropped frame — while its sidecar lists the outage.
final class LiveStreamOutageEndToEndTests: XCTestCase {
    func testAReceiverKilledMidClipComesBackAndTheRecordingHasNoDrop() throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else { throw XCTSkip("\(ffmpeg) is not installed (ffmpeg)") }
        let directory = try ProcessRunner.temporaryDirectory("live-outage")
        let port = Int.random(in: 20_000...60_000)
        let rig = """
        name: Live outage
        output: {directory: \(directory.path)/out, size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}, size: 320x180, fps: 30}
        live:
          stream: [{url: "srt://127.0.0.1:\(port)", name: local, bitrate: 300k}]
        scripts:
          s: [wait 1s, record, wait 30s, stop]
        """
        let path = directory.appendingPathComponent("live.yaml").path
        try rig.write(toFile: path, atomically: true, encoding: .utf8)
        func listen(_ file: String) throws -> Process { try SRTListenerProcess.forTest(port: port, file: file) }
        var listener = try listen(directory.path + "/first.ts")
        defer { if listener.isRunning { listener.terminate() } }
        let log = directory.appendingPathComponent("run.log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let run = Process()
        run.executableURL = BinaryLocator.pausecam
        run.arguments = ["run", path, "--script", "s"]
        run.standardOutput = logHandle
        run.standardError = logHandle
        try run.run()
        defer { if run.isRunning { run.terminate() } }
        func text() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func waitFor(_ what: String, seconds: Double) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while !text().contains(what) {
                if Date() > end || !run.isRunning && !text().contains(what) {
                    XCTFail("no \"\(what)\" in: \(text())")
                    return false
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return true
        }
        guard waitFor("recording scene 1", seconds: 30), waitFor("LIVE local: sending", seconds: 5) else { return }
        kill(listener.processIdentifier, SIGKILL)
        listener.waitUntilExit()
        guard waitFor("live local lost", seconds: 20) else { return }
        listener = try listen(directory.path + "/second.ts")
        guard waitFor("LIVE local back after", seconds: 25) else { return }
        run.waitUntilExit()
        try logHandle.close()
        let output = text()
        XCTAssertEqual(run.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("0 dropped frame(s)"), output)
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/out").filter { $0.hasSuffix(".json") }
        let sidecar = try String(contentsOfFile: directory.path + "/out/" + (sidecars.first ?? ""), encoding: .utf8)
        XCTAssertTrue(sidecar.contains("live local lost"), sidecar)
        XCTAssertTrue(sidecar.contains("LIVE local back after"), sidecar)
    }
}
