import XCTest
@testable import PauseCamCore

/// `output.name` patterns: the placeholders, and a result that is always one safe file name.
final class FileNamePatternTests: XCTestCase {
    /// 2026-12-03 04:05:06 UTC.
    private let date = Date(timeIntervalSince1970: 1_796_270_706)
    private let utc = TimeZone(identifier: "UTC")!

    func testPlaceholdersExpand() {
        let table: [(pattern: String, script: String?, expected: String)] = [
            ("{rig}-{date}-{time}", nil, "desk-rig-2026-12-03-040506"),
            ("{script}", nil, "shell"),
            ("{script}", "Morning Show", "morning-show"),
            ("take {rig}", nil, "take desk-rig"),
            ("{unknown}", nil, "{unknown}"),
            ("plain", "x", "plain"),
        ]
        for row in table {
            XCTAssertEqual(FileNamePattern.expand(row.pattern, rig: "Desk rig", date: date, script: row.script,
                                                  timeZone: utc), row.expected, row.pattern)
        }
    }

    func testTheTimeIsTheLocalTimeOfTheGivenZone() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        XCTAssertEqual(FileNamePattern.expand("{date} {time}", rig: "r", date: date, script: nil, timeZone: berlin),
                       "2026-12-03 050506")
    }

    /// A slash, a newline or another control character never reaches the file system; an empty or dot name
    /// becomes `clip`.
    func testTheResultIsOneSafeFileName() {
        let table: [(String, String)] = [
            ("a/b", "a-b"), ("../x", "..-x"), ("line\nbreak", "line-break"), ("bell\u{07}", "bell-"),
            ("", "clip"), (".", "clip"), ("..", "clip"),
        ]
        for (pattern, expected) in table {
            XCTAssertEqual(FileNamePattern.expand(pattern, rig: "r", date: date, script: nil, timeZone: utc), expected,
                           pattern.debugDescription)
        }
    }

    func testSlugsAreLowerCaseWordsJoinedByDashes() {
        XCTAssertEqual(FileNamePattern.slug("Desk rig"), "desk-rig")
        XCTAssertEqual(FileNamePattern.slug("  Studio  B / 2 "), "studio-b-2")
        XCTAssertEqual(FileNamePattern.slug("Ünïcode Räume"), "ünïcode-räume")
        XCTAssertEqual(FileNamePattern.slug("///"), "rig", "nothing left of a name is the word rig")
    }
}
