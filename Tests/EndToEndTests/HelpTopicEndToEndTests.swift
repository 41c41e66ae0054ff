import Foundation
import XCTest

/// `pausecam help TOPIC` and usage errors: a topic that is not a command is a usage error (exit 2, a suggestion
/// when it is a near miss), never the general help with a success status a script would take for an answer.
final class HelpTopicEndToEndTests: XCTestCase {
    private func pausecam(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments)
    }

    func testHelpForAnUnknownCommandSaysSoAndExits2() throws {
        let result = try pausecam(["help", "bogus"])
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stderr.contains("no command \"bogus\""), result.stderr)
        XCTAssertFalse(result.stdoutText.contains("USAGE"), "the general help was printed:\n\(result.stdoutText)")
    }

    func testHelpForAMisspeltCommandSuggestsTheCommand() throws {
        let result = try pausecam(["help", "exprot"])
        XCTAssertEqual(result.status, 2, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stderr.contains("no command \"exprot\"; did you mean \"export\"?"), result.stderr)
    }

    func testHelpForAKnownCommandStillPrintsItsPage() throws {
        let result = try pausecam(["help", "export"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("export"), result.stdoutText)
    }

    /// `export` usage errors exit 2 like every other command's: a missing sidecar word, an unknown option, a
    /// missing `--format`.
    func testExportUsageErrorsExit2() throws {
        for arguments in [["export"], ["export", "--bogus"], ["export", "a.json", "b.json", "--format", "edl"],
                          ["export", "a.json"]] {
            let result = try pausecam(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("pausecam: "), "\(arguments): \(result.stderr)")
        }
    }
}
