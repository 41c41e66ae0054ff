import XCTest
@testable import PauseCamCore

/// Timecode labels against SMPTE's tables, at the boundaries where drop-frame skips and where it does not.
final class TimecodeTests: XCTestCase {
    func testDropFrameAt2997AroundTheMinuteAndTenMinuteBoundaries() throws {
        let timecode = Timecode(rate: FrameRate(30000, 1001))
        XCTAssertTrue(timecode.isDropFrame)
        let table: [(Int64, String)] = [
            (0, "00:00:00;00"), (1, "00:00:00;01"), (29, "00:00:00;29"), (30, "00:00:01;00"),
            (1799, "00:00:59;29"),
            (1800, "00:01:00;02"), // ;00 and ;01 do not exist at minute 1
            (1801, "00:01:00;03"),
            (3597, "00:01:59;29"), (3598, "00:02:00;02"),
            (17981, "00:09:59;29"),
            (17982, "00:10:00;00"), // every tenth minute keeps ;00 and ;01
            (17983, "00:10:00;01"), (17984, "00:10:00;02"),
            (19781, "00:10:59;29"), (19782, "00:11:00;02"),
            (107_892, "01:00:00;00"), // one hour of 29.97 is 107892 frames
            (2_589_407, "23:59:59;29"),
        ]
        for (frame, label) in table {
            XCTAssertEqual(timecode.string(forFrame: frame), label, "frame \(frame)")
            XCTAssertEqual(try timecode.frame(parsing: label), frame, label)
        }
    }

    func testDropFrameAt5994DropsFourLabels() throws {
        let timecode = Timecode(rate: FrameRate(60000, 1001))
        XCTAssertTrue(timecode.isDropFrame)
        XCTAssertEqual(timecode.string(forFrame: 3599), "00:00:59;59")
        XCTAssertEqual(timecode.string(forFrame: 3600), "00:01:00;04")
        XCTAssertEqual(timecode.string(forFrame: 35964), "00:10:00;00")
        XCTAssertEqual(try timecode.frame(parsing: "00:10:00;00"), 35964)
    }

    func testNonDropRates() throws {
        let thirty = Timecode(rate: FrameRate(30))
        XCTAssertFalse(thirty.isDropFrame)
        XCTAssertEqual(thirty.string(forFrame: 1800), "00:01:00:00")
        XCTAssertEqual(thirty.string(forFrame: 18000), "00:10:00:00")
        XCTAssertEqual(thirty.string(forFrame: 150), "00:00:05:00")
        let film = Timecode(rate: FrameRate(24000, 1001))
        XCTAssertFalse(film.isDropFrame, "23.976 has no drop-frame form")
        XCTAssertEqual(film.string(forFrame: 1440), "00:01:00:00")
        let pal = Timecode(rate: FrameRate(25))
        XCTAssertEqual(pal.string(forFrame: 25 * 3600 + 24), "01:00:00:24")
        XCTAssertEqual(try pal.frame(parsing: "01:00:00:00"), 90_000)
    }

    func testSkippedAndMalformedLabelsAreRefusedWithAReason() {
        let timecode = Timecode(rate: FrameRate(30000, 1001))
        for text in ["00:01:00;00", "00:01:00;01"] {
            XCTAssertThrowsError(try timecode.frame(parsing: text)) { error in
                XCTAssertTrue("\(error)".contains("does not exist in drop-frame"), "\(error)")
            }
        }
        XCTAssertNoThrow(try timecode.frame(parsing: "00:10:00;00"))
        for text in ["1:2:3", "aa:00:00:00", "00:60:00:00", "00:00:00:30", "", "00:00:00:-1", "00:00:00:"] {
            XCTAssertThrowsError(try timecode.frame(parsing: text), text)
        }
    }

    func testLabelsWrapAt24HoursAndHoursPast23AreRefused() throws {
        for rate in [FrameRate(30), FrameRate(30000, 1001), FrameRate(60000, 1001), FrameRate(25),
                     FrameRate(24000, 1001)] {
            let timecode = Timecode(rate: rate)
            let last = timecode.framesPerDay - 1
            XCTAssertEqual(try timecode.frame(parsing: timecode.string(forFrame: last)), last, "\(rate)")
            XCTAssertTrue(timecode.string(forFrame: last).hasPrefix("23:59:59"), "\(rate)")
            XCTAssertEqual(timecode.string(forFrame: timecode.framesPerDay), timecode.string(forFrame: 0), "\(rate)")
            XCTAssertEqual(timecode.string(forFrame: 3 * timecode.framesPerDay + 1), timecode.string(forFrame: 1))
            for text in ["24:00:00:00", "99999999999999:00:00:00", "\(Int64.max):00:00:00"] {
                XCTAssertThrowsError(try timecode.frame(parsing: text)) { error in
                    XCTAssertTrue("\(error)".contains("hours go to 23"), "\(error)")
                }
            }
        }
        XCTAssertEqual(Timecode(rate: FrameRate(30000, 1001)).framesPerDay, 2_589_408)
        XCTAssertEqual(Timecode(rate: FrameRate(25)).framesPerDay, 2_160_000)
    }

    func testRoundTripOverADayAt2997() throws {
        let timecode = Timecode(rate: FrameRate(30000, 1001))
        var frame: Int64 = 0
        while frame < 2_589_408 {
            XCTAssertEqual(try timecode.frame(parsing: timecode.string(forFrame: frame)), frame)
            frame += 997 // a prime stride visits every position within a minute over the day
        }
    }

    func testSidecarFPSBecomesTheExactRate() {
        XCTAssertEqual(FrameRate(sidecarFPS: 30), FrameRate(30))
        XCTAssertEqual(FrameRate(sidecarFPS: 30000.0 / 1001), FrameRate(30000, 1001))
        XCTAssertEqual(FrameRate(sidecarFPS: 29.97), FrameRate(30000, 1001))
        XCTAssertEqual(FrameRate(sidecarFPS: 23.976), FrameRate(24000, 1001))
        XCTAssertEqual(FrameRate(sidecarFPS: 59.94), FrameRate(60000, 1001))
        XCTAssertEqual(FrameRate(sidecarFPS: 12.5), FrameRate(12500, 1000))
        XCTAssertNil(FrameRate(sidecarFPS: 0))
        XCTAssertNil(FrameRate(sidecarFPS: .nan))
    }
}
