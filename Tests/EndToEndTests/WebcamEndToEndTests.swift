import Foundation
import XCTest

/// A rig with `live: {webcam: …}` on a machine whose loopback device is missing, through the binary: `check` warns
/// with the command that fixes it, `doctor` makes it a blocker in its "Live" section, and `run` refuses the rig
/// with the same words before it creates anything. On a machine without the v4l2loopback module the words are the
/// modprobe line; with the module loaded, the label no loopback carries is named with the labels present.
final class WebcamEndToEndTests: XCTestCase {
    private static let label = "PauseCam test label nobody loads"

    private var moduleLoaded: Bool { FileManager.default.fileExists(atPath: "/sys/module/v4l2loopback") }

    /// The words every command must carry, whichever of the two machines this is.
    private var expectedProblem: String {
        moduleLoaded ? "no v4l2loopback device is labelled \"\(Self.label)\""
                     : "the v4l2loopback kernel module is not loaded"
    }
    private var expectedFix: String {
        moduleLoaded ? "card_label=\"\(Self.label)\""
                     : "sudo modprobe v4l2loopback devices=1 exclusive_caps=1 card_label=\"PauseCam\""
    }

    private func writeRig(in folder: URL) throws -> String {
        let virtual = try String(contentsOf: ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml"),
                                 encoding: .utf8)
        let path = folder.appendingPathComponent("webcam.yaml").path
        try (virtual + "\nlive:\n  webcam: {label: \"\(Self.label)\"}\n").write(toFile: path, atomically: true,
                                                                               encoding: .utf8)
        return path
    }

    func testCheckWarnsWithTheCommandThatFixesIt() throws {
        let folder = try ProcessRunner.temporaryDirectory("webcam-check")
        let rig = try writeRig(in: folder)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", rig])
        XCTAssertEqual(result.status, 0, "a missing device is the machine's state, not an error in the rig: "
                       + result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("warning: webcam label \"\(Self.label)\": \(expectedProblem)"),
                      result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains(expectedFix), result.stdoutText)
    }

    func testDoctorMakesItABlockerInTheLiveSection() throws {
        let folder = try ProcessRunner.temporaryDirectory("webcam-doctor")
        let rig = try writeRig(in: folder)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["doctor", rig, "--output", folder.appendingPathComponent("movies").path],
                                           environment: ["XDG_CACHE_HOME": folder.path])
        let text = result.stdoutText
        XCTAssertEqual(result.status, 1, text + result.stderr)
        XCTAssertTrue(text.contains("\n\nLive\n"), text)
        XCTAssertTrue(text.contains("webcam label \"\(Self.label)\": \(expectedProblem)"), text)
        XCTAssertTrue(text.contains(expectedFix), text)
    }

    func testRunRefusesTheRigBeforeCreatingAnything() throws {
        let folder = try ProcessRunner.temporaryDirectory("webcam-run")
        let rig = try writeRig(in: folder)
        let movies = folder.appendingPathComponent("movies")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", rig, "--script", "demo", "--clock", "simulated", "--output", movies.path],
                                           environment: ["XDG_CACHE_HOME": folder.path,
                                                         "PAUSECAM_FAULT_ENCODER_FPS": "ultrafast=300,superfast=300,veryfast=300"])
        XCTAssertNotEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stderr.contains("webcam label \"\(Self.label)\": \(expectedProblem)"), result.stderr)
        XCTAssertTrue(result.stderr.contains(expectedFix), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: movies.path), "a refused rig leaves no folder behind")
    }
}
