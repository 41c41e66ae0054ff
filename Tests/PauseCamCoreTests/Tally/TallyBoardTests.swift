import XCTest
@testable import PauseCamCore

/// Every lens's tally from the engine's state: program only while recording on the active lens, preview for the
/// armed lens unless it is on program, off otherwise.
final class TallyBoardTests: XCTestCase {
    func testTable() {
        let lenses = ["wide", "main", "tele"]
        let rows: [(String, Session.State, String, String?, [TallyState])] = [
            ("idle, nothing armed", .idle, "wide", nil, [.off, .off, .off]),
            ("idle, tele armed", .idle, "wide", "tele", [.off, .off, .preview]),
            ("recording on wide", .recording, "wide", nil, [.program, .off, .off]),
            ("recording on main, tele armed", .recording, "main", "tele", [.off, .program, .preview]),
            ("the armed lens on program shows program", .recording, "main", "main", [.off, .program, .off]),
            ("paused: nothing on program", .paused, "main", nil, [.off, .off, .off]),
            ("paused keeps the armed lens", .paused, "main", "wide", [.preview, .off, .off]),
            ("stopping: nothing on program", .stopping, "main", nil, [.off, .off, .off]),
            ("finished", .finished, "tele", "wide", [.preview, .off, .off]),
            ("an armed name that is no lens", .recording, "wide", "gone", [.program, .off, .off]),
        ]
        for (label, state, active, preview, expected) in rows {
            let board = TallyBoard(lenses: lenses, activeLens: active, previewLens: preview, state: state)
            XCTAssertEqual(board.entries.map(\.lens), lenses, label)
            XCTAssertEqual(board.entries.map(\.state), expected, label)
            for (lens, state) in zip(lenses, expected) { XCTAssertEqual(board.state(of: lens), state, label) }
        }
    }

    func testALensTheBoardDoesNotListIsOff() {
        let board = TallyBoard(lenses: ["main"], activeLens: "main", previewLens: nil, state: .recording)
        XCTAssertEqual(board.state(of: "main"), .program)
        XCTAssertEqual(board.state(of: "tele"), .off)
    }
}
