import PauseCamCore
import XCTest

/// Control characters made visible in the shell's output, and found where a control request must be refused.
final class VisibleTextTests: XCTestCase {
    func testEachKindOfControlCharacterHasOneVisibleForm() {
        let table: [(text: String, shown: String)] = [
            ("plain text, é and ● stay", "plain text, é and ● stay"),
            ("\u{1B}]0;pwned\u{7}", "^[]0;pwned^G"),
            ("\u{1B}[31mred\u{1B}[0m", "^[[31mred^[[0m"),
            ("take 3\nstop", "take 3^Jstop"),
            ("a\rb\tc\u{0}", "a^Mb^Ic^@"),
            ("\u{7F}", "^?"),
            ("\u{9B}2J \u{85}", "M-^[2J M-^E"),
            ("^[ typed as text", "^[ typed as text"),
        ]
        for (text, shown) in table {
            XCTAssertEqual(VisibleText.escaped(text), shown, text.debugDescription)
            XCTAssertEqual(VisibleText.containsControl(text), text != shown, text.debugDescription)
        }
        XCTAssertEqual(VisibleText.escaped("one\ntwo\u{1B}", keepingLineFeeds: true), "one\ntwo^[")
    }
}
