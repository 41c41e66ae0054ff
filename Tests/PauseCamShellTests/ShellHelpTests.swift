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

/// `clear`, the shell's own word: the overview names it, and it is never a command the parser knows.
final class ShellClearWordTests: XCTestCase {
    func testClearIsTheShellsOwnWord() {
        XCTAssertTrue(ShellHelp.overview.contains("clear (or Ctrl-L) empties the screen"), ShellHelp.overview)
        XCTAssertFalse(Command.words.contains(ShellHelp.clearWord))
        XCTAssertEqual(ShellHelp.clearSequence, "\u{1B}[H\u{1B}[2J")
    }
}
