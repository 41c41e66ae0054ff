import XCTest
import PauseCamCore
@testable import PauseCamShell

/// `help` lists every command word once, in `Command.words` order, and `help WORD` has a text for each.
final class ShellHelpTests: XCTestCase {
    func testEveryCommandWordHasItsLineAndItsHelp() {
        let listed = ShellHelp.summaries.map { summary in
            String(summary.usage.split(separator: " ")[0].split(separator: "|")[0])
        }
        XCTAssertEqual(listed, Command.words, "help lists every command, in Command.words order")
        for word in Command.words {
            XCTAssertFalse(ShellHelp.details(word).hasPrefix("no help"), word)
        }
    }

    func testFollowAndVoiceAreExplained() {
        XCTAssertTrue(ShellHelp.overview.contains("follow on|off"), ShellHelp.overview)
        XCTAssertTrue(ShellHelp.overview.contains("voice NAME mute|unmute|gain DB"), ShellHelp.overview)
        XCTAssertTrue(ShellHelp.details("follow").hasPrefix("follow on|off"))
        XCTAssertTrue(ShellHelp.details("follow").contains("follow:"), "it says which rigs have it")
        XCTAssertTrue(ShellHelp.details("voice").hasPrefix("voice NAME mute|unmute|gain DB"))
        XCTAssertTrue(ShellHelp.details("voice").contains("voice host gain +3dB"))
    }
}
