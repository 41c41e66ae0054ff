import PauseCamCore
@testable import PauseCamSystem
import XCTest

final class ALSACaptureTimelineTests: XCTestCase {
    /// 48 kHz: 960 frames = 20 ms. Measured times are nanoseconds, like htimestamps.
    func ms(_ value: Int64) -> MediaTime { .nanoseconds(value * 1_000_000) }
    func frames(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 48_000) }

    func testTable() {
        var timeline = ALSACaptureTimeline(sampleRate: 48_000)
        typealias Row = (measured: MediaTime, frames: Int, expected: ALSACaptureTimeline.Placement, why: String)
        let table: [Row] = [
            (ms(1000), 960, .init(pts: ms(1000), silenceBefore: 0, dropFromStart: 0), "first read sets the origin"),
            (ms(1020) + .nanoseconds(300_000), 960, .init(pts: ms(1020), silenceBefore: 0, dropFromStart: 0),
             "jitter within tolerance: laid end to end"),
            (ms(1039), 960, .init(pts: ms(1040), silenceBefore: 0, dropFromStart: 0), "early by 1 ms: still end to end"),
            (ms(1160), 960, .init(pts: ms(1060), silenceBefore: 4800, dropFromStart: 0),
             "an overrun lost 100 ms: 4800 frames of silence first"),
            (ms(1180), 960, .init(pts: ms(1180), silenceBefore: 0, dropFromStart: 0), "back in step"),
            (ms(1150), 960, .init(pts: ms(1200), silenceBefore: 0, dropFromStart: 960),
             "card 50 ms ahead: the whole read is dropped"),
            (ms(1155), 960, .init(pts: ms(1200), silenceBefore: 0, dropFromStart: 960), "still ahead: dropped"),
            (ms(1180), 960, .init(pts: ms(1200), silenceBefore: 0, dropFromStart: 0), "20 ms ahead is tolerated"),
        ]
        for row in table {
            XCTAssertEqual(timeline.place(measured: row.measured, frames: row.frames), row.expected, row.why)
        }
        XCTAssertEqual(timeline.silenceFrames, 4800)
        XCTAssertEqual(timeline.droppedFrames, 1920)
        XCTAssertEqual(timeline.next, ms(1220))
    }

    /// A process stopped (Ctrl-Z) for ten minutes comes back to a ten-minute gap: the silence is handed on in
    /// runs of at most a second, contiguous from the expected time to where the samples start.
    func testABigGapIsFilledWithSilenceInCappedRuns() {
        var timeline = ALSACaptureTimeline(sampleRate: 48_000)
        _ = timeline.place(measured: ms(1000), frames: 960)
        let placement = timeline.place(measured: ms(1020) + .seconds(600), frames: 960)
        XCTAssertEqual(placement.silenceBefore, 600 * 48_000)
        let runs = timeline.silenceRuns(placement)
        XCTAssertEqual(runs.count, 600)
        XCTAssertTrue(runs.allSatisfy { $0.frames <= timeline.maximumSilenceFrames && $0.frames > 0 })
        XCTAssertEqual(timeline.maximumSilenceFrames, 48_000)
        XCTAssertEqual(runs.map(\.frames).reduce(0, +), placement.silenceBefore)
        XCTAssertEqual(runs.first?.pts, ms(1020))
        for (previous, next) in zip(runs, runs.dropFirst()) {
            XCTAssertEqual(next.pts, previous.pts + frames(Int64(previous.frames)))
        }
        let last = runs[runs.count - 1]
        XCTAssertEqual(last.pts + frames(Int64(last.frames)), placement.samplesStart(sampleRate: 48_000))
        XCTAssertEqual(placement.samplesStart(sampleRate: 48_000), ms(1020) + .seconds(600))
        // A ragged gap ends with a short run.
        let ragged = ALSACaptureTimeline.Placement(pts: .zero, silenceBefore: 48_000 * 2 + 5, dropFromStart: 0)
        XCTAssertEqual(timeline.silenceRuns(ragged).map(\.frames), [48_000, 48_000, 5])
        XCTAssertEqual(timeline.silenceRuns(.init(pts: .zero, silenceBefore: 0, dropFromStart: 0)), [])
    }

    func testSeededRandomJitterKeepsChunksContiguousAndNearTheClock() {
        var generator = SplitMix64(seed: 42)
        var timeline = ALSACaptureTimeline(sampleRate: 48_000)
        var clock = ms(5000)
        var previousEnd: MediaTime?
        for _ in 0..<2000 {
            let jitter = MediaTime.nanoseconds(Int64(generator.next() % 4_000_000) - 2_000_000)
            let placement = timeline.place(measured: clock + jitter, frames: 960)
            if let previousEnd { XCTAssertEqual(placement.pts, previousEnd) }
            previousEnd = placement.pts + frames(Int64(960 + placement.silenceBefore - placement.dropFromStart))
            clock = clock + ms(20)
        }
        XCTAssertEqual(timeline.silenceFrames, 0, "±2 ms of jitter never counts as lost samples")
        XCTAssertEqual(timeline.droppedFrames, 0)
    }
}

/// A small seeded generator so the random schedule is the same on every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
