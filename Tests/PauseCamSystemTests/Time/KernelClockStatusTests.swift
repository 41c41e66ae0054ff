import Foundation
import XCTest
@testable import PauseCamSystem

/// The kernel's clock status and the paired reading of the real-time and monotonic clocks, on this machine.
final class KernelClockStatusTests: XCTestCase {
    func testTheKernelsClockStatusReadsWithinItsDocumentedRanges() throws {
        let status = try XCTUnwrap(KernelClockStatus.read(), "adjtimex in read-only mode refused")
        // The kernel caps maxerror at NTP_PHASE_LIMIT-derived 16 s (16,000,000 µs); esterror is never negative.
        XCTAssertTrue((0...16_000_000).contains(status.maximumErrorMicroseconds), "\(status)")
        XCTAssertTrue((0...16_000_000).contains(status.estimatedErrorMicroseconds), "\(status)")
        XCTAssertTrue((0...5).contains(status.clockState), "TIME_OK … TIME_ERROR: \(status)")
        XCTAssertEqual(status.unsynchronised,
                       status.clockState == KernelClockStatus.timeErrorState
                           || status.statusBits & KernelClockStatus.unsynchronisedBit != 0)
        XCTAssertEqual(KernelClockStatus.unsynchronisedBit, 0x0040)
        XCTAssertEqual(KernelClockStatus.nanosecondResolutionBit, 0x2000)
    }

    func testAPairedReadingSitsBetweenTheReadingsAroundItAndMatchesTheWallClock() {
        var before = timespec()
        clock_gettime(CLOCK_MONOTONIC, &before)
        let pair = ClockPairReading.read()
        var after = timespec()
        clock_gettime(CLOCK_MONOTONIC, &after)
        let outsideBefore = Int64(before.tv_sec) * 1_000_000_000 + Int64(before.tv_nsec)
        let outsideAfter = Int64(after.tv_sec) * 1_000_000_000 + Int64(after.tv_nsec)

        XCTAssertLessThanOrEqual(outsideBefore, pair.monotonicNanoseconds)
        XCTAssertLessThanOrEqual(pair.monotonicNanoseconds, outsideAfter)
        XCTAssertGreaterThanOrEqual(pair.bracketNanoseconds, 0)
        XCTAssertLessThanOrEqual(pair.bracketNanoseconds, outsideAfter - outsideBefore)
        let wallClock = Int64(Date().timeIntervalSince1970 * 1e9)
        XCTAssertLessThan(abs(wallClock - pair.realtimeNanoseconds), 5_000_000_000, "\(pair)")
    }

    func testTheTightestOfTheTriesIsKept() {
        func reading(_ realtime: Int64, bracket: Int64) -> ClockPairReading {
            ClockPairReading(realtimeNanoseconds: realtime, monotonicNanoseconds: realtime, bracketNanoseconds: bracket)
        }
        let table: [([ClockPairReading], Int64)] = [
            ([reading(1, bracket: 300)], 1),
            ([reading(1, bracket: 300), reading(2, bracket: 90), reading(3, bracket: 120)], 2),
            ([reading(1, bracket: 40_000), reading(2, bracket: 50_000), reading(3, bracket: 70)], 3),
            ([reading(1, bracket: 80), reading(2, bracket: 80), reading(3, bracket: 80)], 1),
        ]
        for (readings, expected) in table {
            XCTAssertEqual(ClockPairReading.tightest(readings).realtimeNanoseconds, expected, "\(readings)")
        }
    }
}
