import Foundation
import XCTest

/// The README's smallest rig is the first thing a new user copies: it must pass `check` as printed there.
final class ReadmeRigEndToEndTests: XCTestCase {
    func testTheSmallestRigInTheReadmeIsValid() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let intro = try XCTUnwrap(text.range(of: "The smallest rig that records"), "the README lost its smallest rig")
        let fenceStart = try XCTUnwrap(text.range(of: "```yaml\n", range: intro.upperBound..<text.endIndex))
        let fenceEnd = try XCTUnwrap(text.range(of: "```", range: fenceStart.upperBound..<text.endIndex))
        let rig = String(text[fenceStart.upperBound..<fenceEnd.lowerBound])
        XCTAssertLessThanOrEqual(rig.split(separator: "\n").count, 5, "a minimal rig is a few lines:\n\(rig)")
        let path = try ProcessRunner.temporaryDirectory("readme-rig").appendingPathComponent("first.yaml")
        try rig.write(to: path, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path.path])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("is valid"), result.stdoutText)
    }
}
