import XCTest
@testable import PauseCamCore

/// One reading of a typed zoom factor, shared by the command grammar (`zoom 1.5x`) and the controller (a preset
/// name that is a factor): the table pins what both accept.
final class ZoomFactorParsingTests: XCTestCase {
    func testTheOneParser() {
        let table: [(String, Double?)] = [
            ("2", 2), ("2x", 2), ("2X", 2), ("1.5", 1.5), ("1.5x", 1.5), ("2×", 2), ("0.5x", 0.5), (".5", 0.5),
            ("0", 0), ("0x", 0), ("100", 100),
            ("", nil), ("x", nil), (".", nil), (".x", nil), ("1.2.3", nil), ("-1", nil), ("+2", nil), ("1e3", nil),
            ("٢", nil), ("2 x", nil), ("two", nil), ("1,5", nil), ("2xx", nil),
        ]
        for (text, expected) in table {
            XCTAssertEqual(ZoomFactor.number(text), expected, "number(\"\(text)\")")
            XCTAssertEqual(ZoomFactor.parse(text), expected.flatMap { $0 > 0 ? $0 : nil }, "parse(\"\(text)\")")
        }
    }

    /// The grammar reads factors with the same parser: a zero is a factor out of range, not an unknown preset.
    func testTheGrammarUsesIt() {
        let parser = CommandParser(lenses: ["main"], zoomPresets: ["close"], exposurePresets: [], scripts: nil)
        XCTAssertEqual(try? parser.parse("zoom 2×").get(), .zoom(.factor(2)))
        guard case .failure(let failure) = parser.parse("zoom 0x") else { return XCTFail("zoom 0x was accepted") }
        XCTAssertEqual(failure.message, "zoom factor 0x is out of range (more than 0, at most 100)")
    }
}
