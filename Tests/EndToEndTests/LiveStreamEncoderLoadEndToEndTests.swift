import Foundation
import XCTest

/// Live streams on a machine too slow for them, through the built binary: every `live.stream` destination is one
/// more x264 encoder (preset veryfast) beside the program's, so `check --measure` lists it in its load line and
/// refuses a rig the machine cannot hold (exit status 2, the stream named by its redacted URL), and `run` refuses it
/// before recording. `PAUSECAM_FAULT_ENCODER_FPS` fixes the measured speeds, so the slow machine is the same on every
/// machine; nothing connects to the destination (the rig is refused, or only checked).
final class LiveStreamEncoderLoadEndToEndTests: XCTestCase {
    /// At 320x240 and 30 fps the program alone needs 45 fps (veryfast's 50 holds it). A 320x240 stream beside it
    /// needs 45 more veryfast frames: 135 at ultrafast (45 + 45 × 100 / 50), above its 100. A 160x120 stream needs a
    /// quarter of that: 58.5 at superfast (45 + 11.25 × 60 / 50), within its 60.
    private let slowMachine = "ultrafast=100,superfast=60,veryfast=50,faster=40"

    /// A folder with a rig streaming to one RTMP destination whose key must never be shown; returns the rig's path.
    private func rig(streamSize: String?) throws -> URL {
        let folder = try ProcessRunner.temporaryDirectory("live-load")
        let size = streamSize.map { ", size: \($0)" } ?? ""
        let text = """
        name: Live load
        output: {name: "{rig}", size: 320x240, fps: 30, video: {codec: h264, preset: auto, crf: 30}}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#c03020"}, size: 320x240, fps: 30}
        live:
          stream: [{url: "rtmp://127.0.0.1:9/live/SECRETKEY", name: studio, start: off\(size)}]
        scripts:
          take: [record One, wait 1s, stop]
        """
        let path = folder.appendingPathComponent("live-load.yaml")
        try text.write(to: path, atomically: true, encoding: .utf8)
        _ = chmod(path.path, 0o600)
        return path
    }

    private func environment(for rigPath: URL) -> [String: String] {
        ["XDG_CACHE_HOME": rigPath.deletingLastPathComponent().appendingPathComponent("cache").path,
         "PAUSECAM_FAULT_ENCODER_FPS": slowMachine]
    }

    func testCheckMeasureCountsTheStreamAndRefusesWhatTheMachineCannotHold() throws {
        let heavy = try rig(streamSize: nil)
        let refused = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", "--measure", heavy.path],
                                            environment: environment(for: heavy))
        XCTAssertEqual(refused.status, 2, refused.stdoutText + refused.stderr)
        XCTAssertTrue(refused.stdoutText.contains(
            "  stream studio (rtmp://127.0.0.1:9/…) 320x240 at 30 fps: x264 veryfast\n"), refused.stdoutText)
        XCTAssertTrue(refused.stdoutText.contains("program plus 0 encoded ISOs and 1 live stream need 135.0 fps at the "
                                                  + "program's size: do not fit at ultrafast"), refused.stdoutText)
        XCTAssertTrue(refused.stderr.contains("\(heavy.path): this machine cannot encode the program (320x240 at 30 fps) "
                                              + "and 1 live stream"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("studio (rtmp://127.0.0.1:9/…)"), refused.stderr)
        XCTAssertFalse((refused.stdoutText + refused.stderr).contains("SECRETKEY"))

        let light = try rig(streamSize: "160x120")
        let accepted = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", "--measure", light.path],
                                             environment: environment(for: light))
        XCTAssertEqual(accepted.status, 0, accepted.stdoutText + accepted.stderr)
        XCTAssertTrue(accepted.stdoutText.contains("program plus 0 encoded ISOs and 1 live stream need 58.5 fps at the "
                                                   + "program's size: fit at superfast"), accepted.stdoutText)
    }

    func testARunWhoseStreamTheMachineCannotHoldIsRefusedBeforeRecording() throws {
        let heavy = try rig(streamSize: nil)
        let out = heavy.deletingLastPathComponent().appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", heavy.path, "--clock", "real", "--output", out.path],
                                           environment: environment(for: heavy))
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stderr.contains("so live streaming is refused"), result.stderr)
        XCTAssertFalse(result.stderr.contains("SECRETKEY"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing recorded, no folder made")
    }
}
