import Foundation
import XCTest

/// A clip that got no video frame is not a movie: `pausecam run` leaves no file behind and exits 1 (before, it
/// "saved" a 185-byte `.mov` with no streams and no thumbnail, and exited 0).
final class EmptyClipEndToEndTests: XCTestCase {
    func testRunWithNothingRecordedLeavesNoFileAndExitsOne() throws {
        let directory = try ProcessRunner.temporaryDirectory("empty-run")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", ProcessRunner.rig("empty-clip.yaml"), "--script", "nothing", "--clock", "simulated",
            "--output", directory.path,
        ])
        XCTAssertEqual(result.status, 1, result.stdoutText + result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
        XCTAssertTrue((result.stdoutText + result.stderr).contains("nothing was recorded"),
                      result.stdoutText + result.stderr)
    }
}
