import XCTest
@testable import PauseCamCore

/// The GPIO lamps' line logic against a fake chip: a lens's line high exactly while it is on program, each line
/// driven only when its level changes, every line low at the end, and a failed line tried again.
final class TallyLampsTests: XCTestCase {
    final class FakeChip: TallyLampLines {
        struct Refused: Error {}
        var writes: [(offset: Int, high: Bool)] = []
        var levels: [Int: Bool] = [:]
        var refuse: Set<Int> = []
        func drive(offset: Int, high: Bool) throws {
            if refuse.contains(offset) { throw Refused() }
            writes.append((offset, high))
            levels[offset] = high
        }
    }

    private let settings = TallySettings.GPIO(chip: "gpiochip0", lines: [.init(lens: "wide", offset: 4),
                                                                         .init(lens: "main", offset: 17)])

    private func board(_ state: Session.State, _ lens: String, preview: String? = nil) -> TallyBoard {
        TallyBoard(lenses: ["wide", "main", "tele"], activeLens: lens, previewLens: preview, state: state)
    }

    func testLinesFollowProgramOnly() {
        let chip = FakeChip()
        let lamps = TallyLamps(settings: settings, lines: chip)
        let rows: [(String, TallyBoard, [Int: Bool])] = [
            ("idle: every line driven low once", board(.idle, "main"), [4: false, 17: false]),
            ("recording on main", board(.recording, "main"), [4: false, 17: true]),
            ("preview lights no lamp", board(.recording, "main", preview: "wide"), [4: false, 17: true]),
            ("switch to wide", board(.recording, "wide"), [4: true, 17: false]),
            ("a lens without a line on program", board(.recording, "tele"), [4: false, 17: false]),
            ("back to main", board(.recording, "main"), [4: false, 17: true]),
            ("paused", board(.paused, "main"), [4: false, 17: false]),
            ("resumed", board(.recording, "main"), [4: false, 17: true]),
            ("stopped", board(.finished, "main"), [4: false, 17: false]),
        ]
        for (label, board, levels) in rows {
            XCTAssertTrue(lamps.show(board).isEmpty, label)
            XCTAssertEqual(chip.levels, levels, label)
        }
    }

    func testALineIsDrivenOnlyWhenItsLevelChanges() {
        let chip = FakeChip()
        let lamps = TallyLamps(settings: settings, lines: chip)
        lamps.show(board(.recording, "main"))
        XCTAssertEqual(chip.writes.count, 2)
        lamps.show(board(.recording, "main", preview: "wide"))
        lamps.show(board(.recording, "main"))
        XCTAssertEqual(chip.writes.count, 2)
        lamps.show(board(.paused, "main"))
        XCTAssertEqual(chip.writes.map(\.offset), [4, 17, 17])
        XCTAssertEqual(chip.writes.last?.high, false)
    }

    func testDarkenSetsEveryLineLow() {
        let chip = FakeChip()
        let lamps = TallyLamps(settings: settings, lines: chip)
        lamps.show(board(.recording, "wide"))
        XCTAssertEqual(chip.levels[4], true)
        lamps.darken()
        XCTAssertEqual(chip.levels, [4: false, 17: false])
    }

    func testAFailedLineIsTriedAgainAtTheNextBoard() {
        let chip = FakeChip()
        chip.refuse = [17]
        let lamps = TallyLamps(settings: settings, lines: chip)
        XCTAssertEqual(lamps.show(board(.recording, "main")).count, 1)
        XCTAssertNil(chip.levels[17])
        chip.refuse = []
        XCTAssertTrue(lamps.show(board(.recording, "main")).isEmpty)
        XCTAssertEqual(chip.levels[17], true)
    }
}
