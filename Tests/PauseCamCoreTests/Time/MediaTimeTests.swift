import XCTest
@testable import PauseCamCore

final class MediaTimeTests: XCTestCase {
    func testComparisonAcrossTimescales() {
        XCTAssertEqual(MediaTime(value: 1, timescale: 2), MediaTime(value: 500, timescale: 1000))
        XCTAssertLessThan(MediaTime(value: 1001, timescale: 30000), MediaTime(value: 1, timescale: 29))
        XCTAssertGreaterThan(MediaTime(value: Int64.max, timescale: 1), MediaTime(value: Int64.max, timescale: 1_000_000_000))
        XCTAssertLessThan(MediaTime(value: Int64.min, timescale: 1), MediaTime(value: Int64.min, timescale: 2))
    }
}

/// Arithmetic, rounding and the Int64 extremes: overflow is an error, never a wrap or a trap.
final class MediaTimeArithmeticTests: XCTestCase {
    private func t(_ value: Int64, _ timescale: Int32) -> MediaTime { MediaTime(value: value, timescale: timescale) }

    func testAdditionIsExactInTheCommonTimescale() throws {
        let sum = try t(1, 30).adding(t(1001, 30000))
        XCTAssertEqual(sum.timescale, 30000)
        XCTAssertEqual(sum.value, 2001)
        XCTAssertEqual(try t(1, 48000).adding(t(1, 44100)), t(441 + 480, 21_168_000))
        XCTAssertEqual(try t(5, 1).subtracting(t(1, 3)), t(14, 3))
        XCTAssertEqual(try t(1001, 30000).multiplied(by: 30000), .seconds(1001))
        // Nanoseconds and 1/30 s need 3·10⁹ ticks per second, more than Int32: rounded to the nearest nanosecond.
        let rounded = try MediaTime.nanoseconds(0).adding(t(1, 30))
        XCTAssertEqual(rounded, .nanoseconds(33_333_333))
        XCTAssertEqual(try MediaTime.nanoseconds(0).adding(t(2, 30)), .nanoseconds(66_666_667))
    }

    func testRescaleRounding() throws {
        let table: [(MediaTime, MediaTime.Rounding, Int64)] = [
            (t(-1, 3), .down, -1), (t(-1, 3), .up, 0), (t(-1, 3), .nearest, 0),
            (t(1, 3), .down, 0), (t(1, 3), .up, 1), (t(2, 3), .nearest, 1),
            (t(1, 2), .nearest, 1), (t(-1, 2), .nearest, -1), (t(6, 3), .up, 2),
        ]
        for (time, rounding, expected) in table {
            XCTAssertEqual(try time.rescaled(to: 1, rounding: rounding).value, expected, "\(time) \(rounding)")
        }
        XCTAssertEqual(try t(1001, 30000).rescaled(to: 1_000_000_000, rounding: .down), .nanoseconds(33_366_666))
    }

    func testInt64ExtremesThrowOverflow() {
        let max = t(Int64.max, 1), min = t(Int64.min, 1)
        XCTAssertThrowsError(try max.adding(.seconds(1))) { XCTAssertEqual($0 as? MediaTimeError, .overflow) }
        XCTAssertThrowsError(try min.subtracting(.seconds(1))) { XCTAssertEqual($0 as? MediaTimeError, .overflow) }
        XCTAssertThrowsError(try min.subtracting(max))
        XCTAssertThrowsError(try max.multiplied(by: 2))
        XCTAssertThrowsError(try min.multiplied(by: -1))
        // Rescaling to a finer timescale that cannot hold the value.
        XCTAssertThrowsError(try max.rescaled(to: 1000, rounding: .down))
        XCTAssertThrowsError(try min.rescaled(to: 2, rounding: .nearest))
        // The quotient fits exactly at the edge, and only the rounding step leaves Int64.
        let high = t(7_686_143_364_045_646_506, 5)
        XCTAssertEqual(try high.rescaled(to: 6, rounding: .down).value, Int64.max)
        XCTAssertThrowsError(try high.rescaled(to: 6, rounding: .up)) { XCTAssertEqual($0 as? MediaTimeError, .overflow) }
        let low = t(-7_686_143_364_045_646_507, 5)
        XCTAssertEqual(try low.rescaled(to: 6, rounding: .up).value, Int64.min)
        XCTAssertThrowsError(try low.rescaled(to: 6, rounding: .down))
        // Adding in the common timescale: 1/2 + Int64.max/3 must rescale Int64.max to 1/6.
        XCTAssertThrowsError(try t(1, 2).adding(t(Int64.max, 3)))
        // Right at the edge without overflow.
        XCTAssertEqual(try t(Int64.max - 1, 1).adding(.seconds(1)), max)
        XCTAssertEqual(try t(Int64.min + 1, 1).subtracting(.seconds(1)), min)
        XCTAssertNil(MediaTime.timespec(seconds: Int64.max / 1_000_000_000 + 1, nanoseconds: 0))
        XCTAssertNil(MediaTime.timespec(seconds: Int64.max / 1_000_000_000, nanoseconds: 999_999_999))
        XCTAssertEqual(MediaTime.timespec(seconds: 12, nanoseconds: 5), .nanoseconds(12_000_000_005))
    }

    func testComparisonAtExtremesIsExact() {
        // 2^62 − 1 against (2^63 − 1)/2 = 2^62 − ½: equal as Doubles, ordered exactly here.
        let a = t(Int64.max / 2, 1), b = t(Int64.max, 2)
        XCTAssertEqual(a.seconds, b.seconds)
        XCTAssertLessThan(a, b)
        XCTAssertNotEqual(a, b)
        XCTAssertLessThan(t(Int64.max - 1, Int32.max), t(Int64.max, Int32.max))
        XCTAssertLessThan(t(Int64.max, Int32.max), t(Int64.max, Int32.max - 1))
        XCTAssertLessThan(t(Int64.min, 1), t(Int64.min, Int32.max))
        XCTAssertLessThan(t(Int64.min, 1), t(Int64.max, 1))
        XCTAssertEqual(t(Int64.min, 1), t(Int64.min, 1))
        XCTAssertEqual(t(Int64.max - 1, 2), t(Int64.max / 2, 1))
        XCTAssertEqual(MediaTime.max(t(Int64.min, 3), t(Int64.min, 2)), t(Int64.min, 3))
    }

    func testHashMatchesCrossTimescaleEquality() {
        let set: Set<MediaTime> = [t(1, 2), t(500, 1000), t(-3, 6), t(-1, 2), .zero, t(0, 48000),
                                   t(Int64.min, 1), t(Int64.min, 2), t(Int64.max, Int32.max)]
        XCTAssertEqual(set.count, 6)
        XCTAssertTrue(set.contains(t(15, 30)))
        XCTAssertTrue(set.contains(t(Int64.min, 1)))
    }

    func testFrameRate() {
        XCTAssertEqual(FrameRate(30000, 1001).frameDuration, t(1001, 30000))
        XCTAssertEqual(FrameRate(30).frameDuration, t(1, 30))
        XCTAssertEqual(FrameRate(30000, 1001).description, "29.97")
        XCTAssertEqual(FrameRate(60, 2).description, "30")
        XCTAssertEqual(FrameRate(25).description, "25")
    }

    func testSaturatingAddingTable() {
        let rows: [(MediaTime, MediaTime, MediaTime)] = [
            (.seconds(1), .milliseconds(500), .milliseconds(1500)),
            (MediaTime(value: .max, timescale: 1000), .milliseconds(1), MediaTime(value: .max, timescale: 1000)),
            (MediaTime(value: .min, timescale: 1000), .milliseconds(-1), MediaTime(value: .min, timescale: 1000)),
            // The rescale to nanoseconds overflows: the sum's side decides the bound.
            (.seconds(.max), .nanoseconds(-1), MediaTime(value: .max, timescale: 1_000_000_000)),
            (.seconds(.min), .nanoseconds(.max), MediaTime(value: .min, timescale: 1_000_000_000)),
            (.nanoseconds(.max), .nanoseconds(.min), .nanoseconds(-1)),
        ]
        for (a, b, sum) in rows {
            let result = a.saturatingAdding(b)
            XCTAssertEqual(result, sum, "\(a) + \(b)")
            XCTAssertEqual(result.timescale, sum.timescale, "\(a) + \(b)")
        }
    }
}
