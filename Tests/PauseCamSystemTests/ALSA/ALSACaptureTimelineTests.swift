import PauseCamCore
@testable import PauseCamSystem
import XCTest

final class ALSACaptureTimelineTests: XCTestCase {
    /// 48 kHz: 960 frames = 20 ms. Measured times are nanoseconds, like htimestamps.
    func ms(_ value: Int64) -> MediaTime { .nanoseconds(value * 1_000_000) }
    func frames(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 48_000) }

    /// Half a sample at 48 kHz, in nanoseconds (rounded down).
    let halfSample = MediaTime.nanoseconds(10_416)

    func testTable() {
        var timeline = ALSACaptureTimeline(sampleRate: 48_000)
        typealias Row = (measured: MediaTime, frames: Int, expected: MediaTime, why: String)
        let table: [Row] = [
            (ms(1000), 960, ms(1000), "first read: its measured time"),
            (ms(1020) + .nanoseconds(300_000), 960, ms(1020) + .nanoseconds(300_000),
             "late by 0.3 ms: its measured time, no silence"),
            (ms(1039), 960, ms(1040) + .nanoseconds(300_000) - halfSample,
             "measured before the previous read ended: half a sample before that end, never overlapping"),
            (ms(1160), 960, ms(1160), "an overrun lost 100 ms: a gap in time, no silence here"),
            (ms(1150), 960, ms(1180) - halfSample, "a card ahead of the clock: kept in order, nothing dropped"),
        ]
        for row in table {
            XCTAssertEqual(timeline.place(measured: row.measured, frames: row.frames), row.expected, row.why)
        }
        XCTAssertEqual(timeline.reorderedReads, 2)
        XCTAssertEqual(timeline.next, ms(1200) - halfSample)
    }

    /// A process stopped (Ctrl-Z) for ten minutes comes back to a ten-minute gap in capture time: no silence is
    /// made here (the encoder fills a stall once, in runs of at most a second).
    func testABigGapIsLeftToTheOneCorrectionDownstream() {
        var timeline = ALSACaptureTimeline(sampleRate: 48_000)
        _ = timeline.place(measured: ms(1000), frames: 960)
        XCTAssertEqual(timeline.place(measured: ms(1020) + .seconds(600), frames: 960), ms(1020) + .seconds(600))
        XCTAssertEqual(timeline.reorderedReads, 0)
    }

    func testSeededRandomJitterKeepsSamplesInOrderAndNearTheClock() {
        var generator = SplitMix64(seed: 42)
        var timeline = ALSACaptureTimeline(sampleRate: 48_000)
        var clock = ms(5000)
        var previous: MediaTime?
        for _ in 0..<2000 {
            let jitter = MediaTime.nanoseconds(Int64(generator.next() % 4_000_000) - 2_000_000)
            let pts = timeline.place(measured: clock + jitter, frames: 960)
            if let previous {
                // The new first sample comes after the previous read's last one.
                XCTAssertGreaterThan(pts, previous + frames(959))
            }
            XCTAssertLessThanOrEqual(abs(((try? (pts - clock).rescaled(to: 1_000_000, rounding: .nearest).value) ?? 0)),
                                     2000, "within the jitter of the clock: nothing accumulates")
            previous = pts
            clock = clock + ms(20)
        }
    }
}

