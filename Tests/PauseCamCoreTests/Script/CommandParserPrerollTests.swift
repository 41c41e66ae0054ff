import XCTest
@testable import PauseCamCore

/// `record --preroll DURATION`, alone and with `--countdown`, and its line printed back.
final class CommandParserPrerollTests: XCTestCase {
    let parser = CommandParser(lenses: ["main"], zoomPresets: [], exposurePresets: [], scripts: nil)

    func testGoodRecordOptionsTable() throws {
        let rows: [(String, Command)] = [
            ("record --preroll 3s", .record(name: nil, preroll: .seconds(3))),
            ("record --preroll=500ms Intro", .record(name: "Intro", preroll: .milliseconds(500))),
            ("record --preroll 0s", .record(name: nil, preroll: .zero)),
            ("record --countdown 3 --preroll 2s Take one", .record(name: "Take one", countdown: 3, preroll: .seconds(2))),
            ("record --preroll 2s --countdown 3", .record(name: nil, countdown: 3, preroll: .seconds(2))),
            ("record --countdown 3", .record(name: nil, countdown: 3)),
            ("record Intro", .record(name: "Intro")),
            ("record --other", .record(name: "--other")),
        ]
        for (line, expected) in rows {
            XCTAssertEqual(try parser.parse(line).get(), expected, line)
            XCTAssertEqual(try parser.parse(CommandParser.line(for: expected)).get(), expected, "round trip of \(line)")
        }
        XCTAssertEqual(CommandParser.line(for: .record(name: "A", countdown: 2, preroll: .seconds(3))),
                       "record --countdown 2 --preroll 3s A")
    }

    func testBadRecordOptionsTable() {
        let rows: [(String, String)] = [
            ("record --preroll", "--preroll needs a duration from 0s to 30s, e.g. record --preroll 3s (got \"\")"),
            ("record --preroll 31s", "--preroll needs a duration from 0s to 30s, e.g. record --preroll 3s (got \"31s\")"),
            ("record --preroll soon", "--preroll needs a duration from 0s to 30s, e.g. record --preroll 3s (got \"soon\")"),
            ("record --prerollx 3s", "\"record\" knows two options, --countdown SECONDS and --preroll DURATION (got \"--prerollx\")"),
        ]
        for (line, message) in rows {
            guard case .failure(let failure) = parser.parse(line) else { XCTFail("\(line) was accepted"); continue }
            XCTAssertTrue("\(failure)".contains(message), "\(line): \(failure)")
        }
    }
}
