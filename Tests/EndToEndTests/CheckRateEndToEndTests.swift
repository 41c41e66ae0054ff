import Foundation
import XCTest

/// `pausecam check` asks every connected camera of a rig whether it can deliver the movie's frame rate (formats,
/// sizes and intervals only: it never streams and never sets a control) and names the fix; a lens whose camera is
/// absent is said to be unchecked. A rate warning is not an error: the exit status stays 0.
final class CheckRateEndToEndTests: XCTestCase {
    /// A rig at `fps` whose lens `wide` asks the umockdev camera (serial AAAA1111) for YUYV 640x480 (it lists 30 fps
    /// only) and whose lens `tele` names a camera that is not there.
    static func writeRig(fps: Int, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("desk.yaml").path
        try """
        name: Check rates
        output: {size: 1280x720, fps: \(fps)}
        audio: {device: none}
        lenses:
          wide: {zoom: 1, match: {serial: "AAAA1111"}, format: yuyv, size: 640x480}
          tele: {zoom: 2, match: {serial: "NOT-HERE-0000"}}
          main: {zoom: 1.5, virtual: {color: "#20c040"}}
        default_lens: main
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testARigWhoseCamerasAreAbsentChecksCleanAndSaysTheirRateWasNotChecked() throws {
        if FileManager.default.fileExists(atPath: "/dev/video0") || ProcessInfo.processInfo.environment["UMOCKDEV_DIR"] != nil {
            throw XCTSkip("this machine has a camera at /dev/video0; the test needs one without")
        }
        let folder = try ProcessRunner.temporaryDirectory("check-rate-absent")
        let path = try Self.writeRig(fps: 60, in: folder)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdoutText.contains("\"Check rates\" is valid"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("    wide: not connected: rate not checked\n"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("    tele: not connected: rate not checked\n"), result.stdoutText)
        XCTAssertFalse(result.stdoutText.contains("    main:"), "a virtual lens has no camera to check")
    }

    func testTheVirtualRigChecksWithoutACameraRateSection() throws {
        let path = ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml").path
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertFalse(result.stdoutText.contains("camera rates"), result.stdoutText)
    }

    func testCheckNamesACameraTooSlowForTheMovieAndTheFixInAUmockdevTestbed() throws {
        try UmockdevScenario.run("ioctl", test: "EndToEndTests.CheckRateInsideTestbedTests/testCheckNamesTheSlowCamera")
    }
}

/// Runs inside the umockdev "ioctl" testbed (one Fake C920 at /dev/video0 listing MJPEG 1280x720 at 30 and 15 fps
/// and YUYV 640x480 at 30 fps); skipped anywhere else. The `pausecam` child inherits the testbed's preload.
final class CheckRateInsideTestbedTests: XCTestCase {
    func testCheckNamesTheSlowCamera() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] == "ioctl" else {
            throw XCTSkip("runs inside the umockdev testbed (CheckRateEndToEndTests starts it)")
        }
        let folder = try ProcessRunner.temporaryDirectory("check-rate-slow")
        let slow = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", try CheckRateEndToEndTests.writeRig(fps: 60, in: folder)])
        XCTAssertEqual(slow.status, 0, "a rate warning is not an error: " + slow.stdoutText + slow.stderr)
        XCTAssertEqual(slow.stderr, "")
        XCTAssertTrue(slow.stdoutText.contains("    wide: warning: lens wide: /dev/video0 delivers 30 fps at 640x480, "
                                               + "slower than the movie's 60 fps"), slow.stdoutText)
        XCTAssertTrue(slow.stdoutText.contains("`format: mjpeg` or a smaller `size` lets it keep up"), slow.stdoutText)
        XCTAssertTrue(slow.stdoutText.contains("    tele: not connected: rate not checked\n"), slow.stdoutText)

        let fine = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", try CheckRateEndToEndTests.writeRig(fps: 30, in: folder)])
        XCTAssertEqual(fine.status, 0, fine.stdoutText + fine.stderr)
        XCTAssertTrue(fine.stdoutText.contains("    wide: /dev/video0 keeps up: 30 fps at 640x480 YUYV\n"), fine.stdoutText)
        XCTAssertFalse(fine.stdoutText.contains("warning"), fine.stdoutText)
    }
}

/// Starts `Tests/PauseCamSystemTests/umockdev/testbed.py` (under `umockdev-wrapper`, with Debian's python3) for a
/// scenario and runs one test of this very test binary inside it; fails unless that test ran and passed.
enum UmockdevScenario {
    static func run(_ scenario: String, test: String, file: StaticString = #filePath, line: UInt = #line) throws {
        if ProcessInfo.processInfo.environment["PAUSECAM_UMOCKDEV_SCENARIO"] != nil {
            throw XCTSkip("already inside a testbed")
        }
        for tool in ["/usr/bin/umockdev-wrapper", "/usr/bin/python3"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (Debian packages umockdev, python3-gi, gir1.2-umockdev-1.0)")
        }
        let probe = try ProcessRunner.run("/usr/bin/python3", [
            "-c", "import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev"])
        if probe.status != 0 { throw XCTSkip("python3 cannot import UMockdev (gir1.2-umockdev-1.0)") }
        let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PauseCamSystemTests/umockdev/testbed.py").path
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let result = try ProcessRunner.run("/usr/bin/umockdev-wrapper", ["/usr/bin/python3", driver, scenario, binary, test])
        let text = result.stdoutText + result.stderr
        XCTAssertEqual(result.status, 0, text, file: file, line: line)
        XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), text, file: file, line: line)
        XCTAssertFalse(text.contains("skipped"), text, file: file, line: line)
    }
}
