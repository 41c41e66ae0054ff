import Foundation
import XCTest

/// `pausecam shell --quiet` with commands from a pipe: no echoed prompts, no results, only errors, warnings and
/// the saved clip's path.
final class ShellQuietEndToEndTests: XCTestCase {
    func testAQuietPipedShellPrintsErrorsAndTheSavedPathOnly() throws {
        let output = try ProcessRunner.temporaryDirectory("shell-quiet")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", ProcessRunner.rig("e2e.yaml"), "--quiet", "--clock", "simulated",
                                            "--output", output.path],
                                           input: "record Intro\nwait 1s\nzoom 2x\nlens bogus\nstop\n")
        XCTAssertEqual(result.status, 1, "lens bogus failed: " + result.stdoutText + result.stderr)
        let movie = output.appendingPathComponent("e2e-rig.mov").path
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 1, result.stdoutText)
        XCTAssertTrue(lines.first?.hasPrefix("* saved \(movie)") ?? false, result.stdoutText)
        XCTAssertFalse(result.stdoutText.contains(">"), "a prompt was echoed: \(result.stdoutText)")
        XCTAssertTrue(result.stderr.contains("error: line 4: lens bogus: unknown lens \"bogus\""), result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: movie))
    }
}
