import XCTest
import PauseCamCore
@testable import PauseCamShell

/// The window title's tally, state by state: the countdown before a clip shows there too, not only in the prompt.
final class TerminalTitleTests: XCTestCase {
    func testTheTitleFollowsTheStateAndTheCountdown() {
        let timer = MediaTime(value: 834, timescale: 10)
        XCTAssertEqual(TerminalTitle.text(state: .recording, timer: timer), "● REC 00:01:23")
        XCTAssertEqual(TerminalTitle.text(state: .paused, timer: timer), "‖ PAUSED 00:01:23")
        XCTAssertNil(TerminalTitle.text(state: .idle, timer: .zero))
        XCTAssertEqual(TerminalTitle.text(state: .idle, timer: .zero, countdown: 3), "REC in 3…")
        XCTAssertEqual(TerminalTitle.text(state: .idle, timer: .zero, countdown: 1), "REC in 1…")
    }
}
