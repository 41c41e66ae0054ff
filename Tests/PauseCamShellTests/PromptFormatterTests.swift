import XCTest
import PauseCamCore
@testable import PauseCamShell

/// The prompt's text for each state, in plain text (NO_COLOR and non-terminals) and with colour.
final class PromptFormatterTests: XCTestCase {
    let timer = MediaTime(value: 834, timescale: 10)  // 1 min 23.4 s

    func testPlainPrompts() {
        let plain = PromptFormatter(color: false)
        XCTAssertEqual(plain.prompt(state: .recording, scene: 3, timer: timer, lens: "main", digitalZoom: 2),
                       "● REC scene 3 00:01:23.4 main 2.0x > ")
        XCTAssertEqual(plain.prompt(state: .paused, scene: 3, timer: timer, lens: "main", digitalZoom: 1),
                       "‖ PAUSED scene 3 00:01:23.4 main > ")
        XCTAssertEqual(plain.prompt(state: .idle, scene: 0, timer: .zero, lens: "main", digitalZoom: 1), "idle main > ")
    }

    func testColourOnlyWhenAsked() {
        let coloured = PromptFormatter(color: true).prompt(state: .recording, scene: 1, timer: .zero, lens: "wide",
                                                           digitalZoom: 1)
        XCTAssertTrue(coloured.contains("\u{1B}["), coloured)
        let plain = PromptFormatter(color: false).prompt(state: .recording, scene: 1, timer: .zero, lens: "wide",
                                                         digitalZoom: 1)
        XCTAssertFalse(plain.contains("\u{1B}"), plain)
    }
}
