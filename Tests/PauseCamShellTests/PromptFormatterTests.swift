import XCTest
import PauseCamCore
@testable import PauseCamShell

/// The prompt's text for each state, in plain text (NO_COLOR and non-terminals) and with colour.
final class PromptFormatterTests: XCTestCase {
    let timer = MediaTime(value: 834, timescale: 10)  // 1 min 23.4 s

    func testPlainPrompts() {
        let plain = PromptFormatter(color: false)
        XCTAssertEqual(plain.prompt(state: .recording, scene: 3, timer: timer, lens: "main", digitalZoom: 2),
                       "● REC scene 3 00:01:23.4 main 2x > ")
        XCTAssertEqual(plain.prompt(state: .recording, scene: 1, timer: timer, lens: "tele", digitalZoom: 1.25),
                       "● REC scene 1 00:01:23.4 tele 1.25x > ", "the same digits as the zoom command's reply")
        XCTAssertEqual(plain.prompt(state: .paused, scene: 3, timer: timer, lens: "main", digitalZoom: 1),
                       "‖ PAUSED scene 3 00:01:23.4 main > ")
        XCTAssertEqual(plain.prompt(state: .idle, scene: 0, timer: .zero, lens: "main", digitalZoom: 1), "idle main > ")
    }

    /// With the lens's own zoom known, a digital zoom reads as the total and its parts, as `zoom` replies: a 2x crop
    /// of a 2x lens is never shown as "standin 2x".
    func testADigitalZoomShowsTheTotalAndItsParts() {
        let plain = PromptFormatter(color: false)
        XCTAssertEqual(plain.prompt(state: .idle, scene: 0, timer: .zero, lens: "standin", digitalZoom: 2, lensZoom: 2),
                       "idle 4x = standin 2x × digital 2x > ")
        XCTAssertEqual(plain.prompt(state: .idle, scene: 0, timer: .zero, lens: "standin", digitalZoom: 1, lensZoom: 2),
                       "idle standin > ")
    }

    func testLiveOutputsMarkThePromptWhileTheySend() {
        let plain = PromptFormatter(color: false)
        let sending = LiveSinkStatus(name: "youtube", on: true, live: true, bitsPerSecond: 3_000_000)
        let lost = LiveSinkStatus(name: "studio", on: true, live: false)
        let off = LiveSinkStatus(name: "backup", on: false, live: false)
        XCTAssertEqual(plain.prompt(state: .paused, scene: 3, timer: timer, lens: "main", digitalZoom: 1, live: [sending]),
                       "LIVE ‖ PAUSED scene 3 00:01:23.4 main > ")
        XCTAssertEqual(plain.prompt(state: .idle, scene: 0, timer: .zero, lens: "main", digitalZoom: 1,
                                    live: [sending, lost, off]), "LIVE 1/2 idle main > ")
        XCTAssertEqual(plain.prompt(state: .idle, scene: 0, timer: .zero, lens: "main", digitalZoom: 1, live: [off]),
                       "idle main > ")
        XCTAssertEqual(sending.summary, "LIVE youtube 3.0 Mbit/s")
        XCTAssertEqual(lost.summary, "live studio connecting")
        XCTAssertEqual(off.summary, "live backup off")
    }

    /// While a `wait` runs on a terminal, the status line is the prompt's state with the wait's progress.
    func testWaitingLineShowsTheStateAndTheWaitsProgress() {
        let plain = PromptFormatter(color: false)
        let prompt = plain.prompt(state: .recording, scene: 1, timer: .seconds(3), lens: "main", digitalZoom: 1)
        XCTAssertEqual(plain.waiting(prompt: prompt, elapsed: .milliseconds(2500), total: .seconds(5)),
                       "● REC scene 1 00:00:03.0 main · waiting 00:00:02.5 of 00:00:05.0 (Ctrl-C ends it)")
        XCTAssertEqual(plain.waiting(prompt: "idle main > ", elapsed: .seconds(7), total: .seconds(5)),
                       "idle main · waiting 00:00:05.0 of 00:00:05.0 (Ctrl-C ends it)", "clamped to the wait")
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
