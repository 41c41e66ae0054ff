import XCTest
@testable import PauseCamCore

/// `DurationParser` turns script and REPL durations into exact `MediaTime`s, and refuses what is not one.
final class DurationParserTests: XCTestCase {
    private func ms(_ value: Int64) -> MediaTime { .milliseconds(value) }

    func testAcceptedFormsAreExact() {
        let table: [(String, MediaTime)] = [
            ("5s", .seconds(5)),
            ("2.5s", ms(2500)),
            ("400ms", ms(400)),
            ("1m30s", .seconds(90)),
            ("1h", .seconds(3600)),
            ("90", .seconds(90)),
            ("1/30", MediaTime(value: 1, timescale: 30)),
            ("1001/30000", MediaTime(value: 1001, timescale: 30000)),
            ("00:01:30.5", ms(90_500)),
            ("1:30", .seconds(90)),
            ("0", .zero),
            (".5s", ms(500)),
            ("1.000001s", MediaTime(value: 1_000_001, timescale: 1_000_000)),
            ("2.5ms", MediaTime(value: 25, timescale: 10_000)),
            ("1h2m3s", .seconds(3723)),
            ("  5S\n", .seconds(5)),
        ]
        for (text, expected) in table {
            let parsed = DurationParser.parse(text)
            XCTAssertEqual(parsed, expected, "\"\(text)\"")
        }
        // Exact, not a Double: 1/30 s is not 0.0333… rounded.
        XCTAssertEqual(try DurationParser.parse("1/30")!.multiplied(by: 30), .seconds(1))
    }

    func testRejections() {
        let rejected = [
            "", "   ", "-5s", "-1/30", "-00:01:30", "+5s", "+00:01", "5x", "s", "ms", "abc", "1.2.3s", "5.s", ".",
            "1/0", "1/-30", "1/30s", "½s", "٣s", "1:75", "1:2:3:4", "::", "1m30", "5 s",
            // overflow: does not fit Int64 ticks / Int32 timescales
            "9223372036854775808", "9223372036854775807h", "99999999999999999999ms", "1/2147483648",
            "1.1234567s", "2562047788015216h",
        ]
        for text in rejected {
            XCTAssertNil(DurationParser.parse(text), "\"\(text)\" should be rejected")
        }
    }

    func testClockStringTruncatesToTenths() {
        XCTAssertEqual(DurationParser.clockString(ms(90_560)), "00:01:30.5")
        XCTAssertEqual(DurationParser.clockString(.seconds(3600 * 25 + 1)), "25:00:01.0")
        XCTAssertEqual(DurationParser.clockString(MediaTime(value: 1001, timescale: 30000), decimals: 3), "00:00:00.033")
    }
}
