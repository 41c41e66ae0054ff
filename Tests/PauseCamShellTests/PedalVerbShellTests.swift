import XCTest
import PauseCamCore
@testable import PauseCamShell

/// The pedal verbs are completed and have help like every other command.
final class PedalVerbShellTests: XCTestCase {
    func testToggleAndChapterAreCompletedAndExplained() {
        let completer = ShellCompleter(lenses: [], zoomPresets: [], exposurePresets: [], scripts: [])
        XCTAssertEqual(completer.complete("to"), ["toggle"])
        XCTAssertEqual(completer.complete("ch"), ["chapter"])
        XCTAssertTrue(ShellHelp.details("toggle").contains("SIGUSR1"))
        XCTAssertTrue(ShellHelp.details("chapter").hasPrefix("chapter [NAME]"))
        XCTAssertTrue(ShellHelp.overview.contains("chapter [NAME]"))
    }
}
