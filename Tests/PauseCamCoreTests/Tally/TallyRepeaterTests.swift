import XCTest
@testable import PauseCamCore

/// The tally goes out at once on a change and again after a quiet period, never in between.
final class TallyRepeaterTests: XCTestCase {
    private func board(_ state: Session.State, _ lens: String = "main") -> TallyBoard {
        TallyBoard(lenses: ["wide", "main"], activeLens: lens, previewLens: nil, state: state)
    }

    func testTable() {
        var repeater = TallyRepeater(period: .seconds(1))
        let rows: [(MediaTime, TallyBoard, TallyRepeater.Reason?)] = [
            (.milliseconds(0), board(.idle), .changed),
            (.milliseconds(40), board(.idle), nil),
            (.milliseconds(999), board(.idle), nil),
            (.milliseconds(1000), board(.idle), .refresh),
            (.milliseconds(1040), board(.recording), .changed),
            (.milliseconds(1080), board(.recording, "wide"), .changed),
            (.milliseconds(2000), board(.recording, "wide"), nil),
            (.milliseconds(2080), board(.recording, "wide"), .refresh),
            (.milliseconds(2120), board(.paused, "wide"), .changed),
        ]
        for (time, board, reason) in rows {
            XCTAssertEqual(repeater.check(board, at: time), reason, "at \(time)")
        }
    }
}
