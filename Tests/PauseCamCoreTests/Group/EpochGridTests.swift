import XCTest
@testable import PauseCamCore

/// The group's frame grid on the shared clock: a table of exact instants (integer rates and 30000/1001, near the
/// Unix epoch and today), and seeded properties: every nanosecond lies in exactly one slot, and snapping is
/// idempotent and never moves a time backwards or by a frame or more.
final class EpochGridTests: XCTestCase {
    func testInstantsAndSlotsAreExactTable() {
        struct Row { var rate: FrameRate; var slot: Int64; var instant: Int64 }
        let rows = [
            Row(rate: FrameRate(30), slot: 0, instant: 0),
            Row(rate: FrameRate(30), slot: 1, instant: 33_333_334),        // 33 333 333.3… ns, rounded up
            Row(rate: FrameRate(30), slot: 3, instant: 100_000_000),       // exact
            Row(rate: FrameRate(30), slot: -1, instant: -33_333_333),
            Row(rate: FrameRate(25), slot: 51_000_000_000, instant: 2_040_000_000_000_000_000),
            Row(rate: FrameRate(30000, 1001), slot: 1, instant: 33_366_667),  // 33 366 666.6… ns
            Row(rate: FrameRate(30000, 1001), slot: 30000, instant: 1_001_000_000_000),
            // 2024-06-10 at 29.97: 1718000000 s × 30000/1001 = 51 488 511 488.51… slots.
            Row(rate: FrameRate(30000, 1001), slot: 51_488_511_489,
                instant: 1_718_000_000_016_300_000),  // 51 488 511 489 × 1001/30000 s = 1 718 000 000.0163 s
        ]
        for row in rows {
            let grid = EpochGrid(rate: row.rate)
            XCTAssertEqual(grid.instant(ofSlot: row.slot), row.instant, "\(row.rate) slot \(row.slot)")
            XCTAssertEqual(grid.slot(containing: row.instant), row.slot, "\(row.rate) at \(row.instant)")
            XCTAssertEqual(grid.slot(containing: row.instant - 1), row.slot - 1, "\(row.rate) just before \(row.slot)")
            XCTAssertEqual(grid.slot(atOrAfter: row.instant), row.slot, "\(row.rate) snapping its own instant")
            XCTAssertEqual(grid.slot(atOrAfter: row.instant + 1), row.slot + 1, "\(row.rate) just after \(row.slot)")
        }
    }

    func testAnEpochOtherThanUnixShiftsTheGrid() {
        let grid = EpochGrid(rate: FrameRate(30), epochNanoseconds: 5)
        XCTAssertEqual(grid.instant(ofSlot: 0), 5)
        XCTAssertEqual(grid.instant(ofSlot: 3), 100_000_005)
        XCTAssertEqual(grid.slot(containing: 4), -1)
        XCTAssertEqual(grid.snapped(6), 33_333_339)
    }

    func testAnInstantBeyondInt64IsNil() {
        XCTAssertNil(EpochGrid(rate: FrameRate(1, 1000)).instant(ofSlot: .max))
    }

    func testEveryNanosecondLiesInOneSlotAndSnappingIsIdempotentProperty() {
        var random = SeededGenerator(seed: 26)
        let rates = [FrameRate(30), FrameRate(30000, 1001), FrameRate(25), FrameRate(60000, 1001), FrameRate(24000, 1001),
                     FrameRate(7, 3)]
        for _ in 0..<20_000 {
            let rate = rates[Int(random.next() % UInt64(rates.count))]
            let grid = EpochGrid(rate: rate, epochNanoseconds: Int64.random(in: -1_000_000...1_000_000, using: &random))
            // Around today, and around the epoch (negative offsets included).
            let t = Bool.random(using: &random)
                ? Int64.random(in: 1_700_000_000_000_000_000...1_800_000_000_000_000_000, using: &random)
                : Int64.random(in: -10_000_000_000...10_000_000_000, using: &random)
            let k = grid.slot(containing: t)
            let start = try! XCTUnwrap(grid.instant(ofSlot: k))
            let next = try! XCTUnwrap(grid.instant(ofSlot: k + 1))
            XCTAssertTrue(start <= t && t < next, "\(rate): \(t) not in slot \(k) [\(start), \(next))")
            let snapped = try! XCTUnwrap(grid.snapped(t))
            XCTAssertTrue(snapped >= t, "snapping moved \(t) back to \(snapped)")
            XCTAssertTrue(snapped == start ? t == start : snapped == next, "\(t) snapped to \(snapped), not a slot")
            XCTAssertEqual(grid.snapped(snapped), snapped, "snapping \(snapped) again moved it")
            // A whole frame never fits between a time and its snap.
            let frameNanoseconds = Int64(rate.denominator) * 1_000_000_000 / Int64(rate.numerator)
            XCTAssertLessThanOrEqual(snapped - t, frameNanoseconds)
        }
    }
}
