import XCTest
@testable import PauseCamCore

/// The recording time left's arithmetic, the byte-rate meter and the ten-minute alarm, as tables.
final class RecordingTimeLeftTests: XCTestCase {
    func testTimeLeftIsTheUsableSpaceOverTheRate() {
        let table: [(free: Int64?, keep: Int64, rate: Double?, seconds: Int?, warning: Bool)] = [
            (1_000_000_000, 0, 1_000_000, 1000, false),
            (1_000_000_000, 400_000_000, 1_000_000, 600, true),       // exactly ten minutes is a warning
            (1_000_000_000, 399_000_000, 1_000_000, 601, false),
            (1_000_000_999, 0, 1_000_000, 1000, false),                // rounded down
            (100, 1000, 1_000_000, 0, true),                           // less free than must stay free
            (nil, 0, 1_000_000, nil, false),                           // free space unknown
            (1_000_000_000, 0, nil, nil, false),                       // rate unknown
            (1_000_000_000, 0, 0, nil, false),                         // nothing written says nothing
            (1_000_000_000, 0, -5, nil, false),
            (1_000_000_000, 0, .nan, nil, false),
            (1_000_000_000, 0, .infinity, nil, false),
            (Int64.max, 0, 1e-9, 315_360_000, false),                  // capped at ten years, no trap
            (Int64.max, Int64.max, 1, 0, true),
            (1_000_000_000, Int64.min, 1_000_000, 1000, false),        // a negative reserve keeps nothing
        ]
        for row in table {
            let left = RecordingTimeLeft(freeBytes: row.free, keepFree: row.keep, bytesPerSecond: row.rate)
            XCTAssertEqual(left.seconds, row.seconds, "\(row)")
            XCTAssertEqual(left.isWarning, row.warning, "\(row)")
        }
    }

    func testTheWordsPeopleRead() {
        let table: [(Int, String)] = [(0, "0 s"), (59, "59 s"), (60, "1 min"), (599, "9 min"), (3599, "59 min"),
                                      (3600, "1 h"), (3660, "1 h 1 min"), (11_520, "3 h 12 min"), (-3, "0 s")]
        for (seconds, text) in table { XCTAssertEqual(RecordingTimeLeft.text(seconds: seconds), text) }
        XCTAssertEqual(RecordingTimeLeft(freeBytes: nil, keepFree: 0, bytesPerSecond: nil).text, "unknown")
        XCTAssertEqual(RecordingTimeLeft.rateText(bytesPerSecond: 1_234_567), "1.2 MB/s")
        XCTAssertEqual(RecordingTimeLeft.rateText(bytesPerSecond: 350_000), "350 kB/s")
    }

    func testTheMeterCountsOnlyRecordedStretchesOverItsWindow() {
        // (seconds, total bytes, recording, expected rate after the sample)
        let table: [(Int64, Int64, Bool, Double?)] = [
            (0, 0, true, nil),                  // one sample is no stretch
            (1, 1_000_000, true, nil),          // 1 s measured: under the minimum span
            (2, 2_000_000, true, 1_000_000),
            (4, 4_000_000, false, 1_000_000),   // paused: this stretch is not counted
            (10, 4_100_000, false, 1_000_000),  // still paused: the trickle is not counted either
            (12, 4_100_000, true, 1_000_000),   // recording again: a fresh start, no stretch yet
            (14, 10_100_000, true, 2_000_000),  // (2 MB + 6 MB) / 4 s
            (14, 99_000_000, true, 2_000_000),  // a time not after the last adds nothing
            (16, 5_000_000, true, 8_000_000.0 / 6),  // shrank (cut back): no growth, time counts
        ]
        var meter = DataRateMeter()
        for (index, row) in table.enumerated() {
            meter.sample(bytes: row.1, at: .seconds(row.0), recording: row.2)
            XCTAssertEqual(meter.bytesPerSecond, row.3, "row \(index)")
        }
    }

    func testTheMeterForgetsStretchesOlderThanItsWindow() {
        var meter = DataRateMeter()
        var bytes: Int64 = 0
        // 60 s at 1 MB/s, then 40 s at 3 MB/s: the window holds only the fast part.
        for second in 0...100 {
            if second > 0 { bytes += second <= 60 ? 1_000_000 : 3_000_000 }
            meter.sample(bytes: bytes, at: .seconds(Int64(second)), recording: true)
        }
        XCTAssertEqual(meter.bytesPerSecond ?? 0, 3_000_000, accuracy: 1)
    }

    func testTheAlarmSaysLowOnceAndClearsAboveItsMargin() {
        // (seconds left, event expected: nil, "low" or "ok")
        let table: [(Int?, String?)] = [
            (nil, nil), (3000, nil), (601, nil), (600, "low"), (500, nil), (nil, nil), (640, nil), (660, nil),
            (661, "ok"), (2000, nil), (100, "low"), (0, nil),
        ]
        var alarm = RecordingTimeAlarm()
        for (index, row) in table.enumerated() {
            let left = RecordingTimeLeft(freeBytes: row.0.map { Int64($0) * 1000 }, keepFree: 0, bytesPerSecond: 1000)
            let event = alarm.update(left)
            switch (event, row.1) {
            case (nil, nil): break
            case (.recordingTimeLeft(let seconds, let low, let rate)?, let expected?):
                XCTAssertEqual(low ? "low" : "ok", expected, "row \(index)")
                XCTAssertEqual(seconds, row.0, "row \(index)")
                XCTAssertEqual(rate, 1000)
            default: XCTFail("row \(index): got \(String(describing: event)), expected \(String(describing: row.1))")
            }
        }
        let low = EngineEvent.recordingTimeLeft(seconds: 540, low: true, bytesPerSecond: 2_500_000)
        XCTAssertEqual(low.typeName, "time_left_low")
        XCTAssertEqual(low.text, "about 9 min of recording left on the disk at 2.5 MB/s: free some space or stop soon "
                       + "(the clip is stopped and saved before the disk is full)")
        XCTAssertEqual(low.jsonFields["time_left_s"] as? Int, 540)
        let ok = EngineEvent.recordingTimeLeft(seconds: 4000, low: false, bytesPerSecond: 2_500_000)
        XCTAssertEqual(ok.typeName, "time_left_ok")
        XCTAssertEqual(ok.text, "recording time left is above 10 min again: about 1 h 6 min at 2.5 MB/s")
    }
}
