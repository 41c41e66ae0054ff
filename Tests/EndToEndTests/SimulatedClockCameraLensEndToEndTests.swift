import Foundation
import XCTest

/// `--clock simulated` on a rig that has a real camera its script never uses, through the built binary: the run
/// is allowed (the camera is not opened; a warning says that lens has no camera in this run) and records its
/// virtual lens; a rig whose default lens is the real camera is still refused (exit 2).
final class SimulatedClockCameraLensEndToEndTests: XCTestCase {
    private func rig(defaultLens: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("mixed-\(defaultLens).yaml").path
        try """
        name: Mixed
        output: {name: "{rig}", size: 320x240, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}}
          desk: {zoom: 2, match: {serial: "NO-SUCH-CAMERA"}}
        default_lens: \(defaultLens)
        scripts:
          take:
            - record: Take
            - wait: 1s
            - stop
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testARealCameraTheScriptNeverUsesIsAllowedOnTheSimulatedClock() throws {
        let folder = try ProcessRunner.temporaryDirectory("simulated-camera-lens")
        let out = folder.appendingPathComponent("out")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", try rig(defaultLens: "main", in: folder), "--script", "take",
                                            "--clock", "simulated", "--output", out.path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stderr.contains("--clock simulated drives virtual and file lenses only: lens desk is a "
                                             + "real camera and has no camera in this run"), result.stderr)
        let probe = MediaProbe(path: out.appendingPathComponent("mixed.mov").path)
        XCTAssertEqual(try probe.duration(), 1.0, accuracy: 0.1)

        let refused = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                            ["run", try rig(defaultLens: "desk", in: folder), "--script", "take",
                                             "--clock", "simulated", "--output", out.path])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("the default lens desk is a real camera"), refused.stderr)
    }
}
