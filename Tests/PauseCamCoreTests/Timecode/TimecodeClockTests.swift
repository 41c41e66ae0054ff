import Foundation
import XCTest
@testable import PauseCamCore

/// The timecode policy: which label a captured instant gets, per start, rate, zone and group grid.
final class TimecodeClockTests: XCTestCase {
    private let ntsc = FrameRate(30000, 1001)
    private let utc = TimeZone(identifier: "UTC")!

    /// A clock whose capture time 0 is `seconds` after midnight UTC of 1970-01-02.
    private func clock(_ start: TimecodeStart, at seconds: Int64, zone: Int = 0) -> TimecodeClock {
        TimecodeClock(start: start, realtimeOffsetNanoseconds: (86_400 + seconds) * 1_000_000_000, utcOffsetSeconds: zone)
    }

    func testTimeOfDayTable() {
        let rows: [(TimecodeStart, Int64, MediaTime, FrameRate, Int, String)] = [
            (.timeOfDay, 27_010, .milliseconds(500), FrameRate(30), 0, "07:30:10:15"),
            (.timeOfDay, 27_010, .milliseconds(500), FrameRate(30), 3600, "08:30:10:15"),
            // Half a second at 25 fps is 12.5 labels: label 12 is in effect.
            (.timeOfDay, 27_010, .milliseconds(500), FrameRate(25), -7200, "05:30:10:12"),
            // The label in effect at the instant: 33.3 ms is the start of a 30 fps frame's second label, 33.2 ms is
            // still the first's.
            (.timeOfDay, 0, MediaTime(value: 33_334, timescale: 1_000_000), FrameRate(30), 0, "00:00:00:01"),
            (.timeOfDay, 0, MediaTime(value: 33_332, timescale: 1_000_000), FrameRate(30), 0, "00:00:00:00"),
            (.timeOfDay, 86_399, .milliseconds(999), FrameRate(30), 0, "23:59:59:29"),
            // 23.976 counts 24 labels a wall-clock second, so the label says the time of day.
            (.timeOfDay, 36_000, .zero, FrameRate(24000, 1001), 0, "10:00:00:00"),
            // Drop-frame labels follow real time to within a few ms: 36,000 s hold 1,078,921.08 frames, and
            // 10:00:00;00 is frame 1,078,920.
            (.timeOfDay, 36_000, .zero, ntsc, 0, "10:00:00;01"),
            (.timeOfDay, 600, .zero, ntsc, 0, "00:10:00;00"),
            (.fixed(label: "01:00:00:00"), 27_010, .zero, FrameRate(30), 0, "01:00:00:00"),
            (.fixed(label: "01:00:00;00"), 27_010, .zero, ntsc, 0, "01:00:00;00"),
            // A label 29.97 skips (written for another rate) becomes the first of its minute.
            (.fixed(label: "00:01:00:00"), 27_010, .zero, ntsc, 0, "00:01:00;02"),
        ]
        for (start, seconds, capture, rate, zone, expected) in rows {
            let frame = clock(start, at: seconds, zone: zone).startFrame(forCapture: capture, rate: rate)
            XCTAssertEqual(Timecode(rate: rate).string(forFrame: frame), expected, "\(start) \(seconds) s \(rate)")
        }
    }

    /// A movie at twice the program's rate (a 60 fps lens's ISO beside a 30 fps program) gets, for the same
    /// instant, a label that halved and rounded down is the program's, whatever the instant's phase in the frame.
    func testALabelAtTwiceTheRateHalvesToTheProgramsLabel() {
        for (double, single) in [(FrameRate(60), FrameRate(30)), (FrameRate(60000, 1001), FrameRate(30000, 1001))] {
            for step in 0..<40 {
                let capture = MediaTime(value: Int64(step) * 2_083_333, timescale: 1_000_000_000)
                let clock = clock(.timeOfDay, at: 27_010)
                let high = clock.startFrame(forCapture: capture, rate: double)
                let low = clock.startFrame(forCapture: capture, rate: single)
                XCTAssertEqual(high / 2, low, "\(double) at \(capture.seconds) s")
            }
        }
    }

    /// Grid labels count the epoch grid's slots, wrapped at a day: slot k of a day's 2,589,408 (29.97 DF).
    func testGridCountsSlotsSinceTheEpoch() {
        let grid = EpochGrid(rate: ntsc)
        let slot: Int64 = 2_589_408 + 1_234_567
        let instant = grid.instant(ofSlot: slot)!
        let clock = TimecodeClock(start: .grid, realtimeOffsetNanoseconds: instant)
        XCTAssertEqual(clock.startFrame(forCapture: .zero, rate: ntsc), 1_234_567)
        XCTAssertEqual(clock.startFrame(forCapture: .nanoseconds(-1), rate: ntsc), 1_234_567, "nearest slot")
    }

    /// Two members whose mappings differ (their own clocks, their own readings) label the same slot alike, at every
    /// start and rate, even a nanosecond or a third of a frame off the slot's start; the next slot is one label on.
    func testGroupMembersOnOneSlotGetOneLabel() {
        for rate in [ntsc, FrameRate(30), FrameRate(60000, 1001), FrameRate(25)] {
            let grid = EpochGrid(rate: rate)
            for start in [TimecodeStart.timeOfDay, .grid] {
                var labels: Set<Int64> = []
                let third = 1_000_000_000 * Int64(rate.denominator) / Int64(rate.numerator) / 3
                for (anchorSeconds, jitter) in [(-86_400 * 3, Int64(0)), (-123_456, 1), (-7, -1), (-999_999, third),
                                                (-5, -third)] {
                    let anchor = MediaTime.seconds(Int64(anchorSeconds))
                    let clock = TimecodeClock(start: start, grid: grid, phaseAnchor: anchor, timeZone: utc,
                                              at: Date(timeIntervalSince1970: 0))
                    let slot: Int64 = 3_000_007
                    let capture = anchor + MediaTime(value: slot * Int64(rate.denominator), timescale: rate.numerator)
                        + .nanoseconds(jitter)
                    let label = clock.startFrame(forCapture: capture, rate: rate)
                    labels.insert(label)
                    let next = clock.startFrame(forCapture: capture + rate.frameDuration, rate: rate)
                    XCTAssertEqual(next, label + 1, "\(start) at \(rate)")
                }
                XCTAssertEqual(labels.count, 1, "\(start) at \(rate): \(labels)")
            }
        }
    }

    /// Far from any real clock (a damaged offset) the arithmetic saturates instead of trapping.
    func testExtremeOffsetsDoNotTrap() {
        for offset in [Int64.max, Int64.min, 0] {
            for start in [TimecodeStart.timeOfDay, .grid] {
                let clock = TimecodeClock(start: start, realtimeOffsetNanoseconds: offset, gridEpochNanoseconds: offset)
                for capture in [MediaTime.seconds(1_000_000_000), .seconds(-1_000_000_000), .zero] {
                    let frame = clock.startFrame(forCapture: capture, rate: ntsc)
                    XCTAssertTrue((0..<Timecode(rate: ntsc).framesPerDay).contains(frame))
                }
            }
        }
    }
}
