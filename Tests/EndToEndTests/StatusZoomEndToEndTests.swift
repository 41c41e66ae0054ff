import Foundation
import XCTest

/// `ctl status --json` reports the zoom a viewer sees: `zoom` is the lens's zoom × the digital zoom and
/// `digital_zoom` the centre crop alone, both to two decimals (mid-ramp values included).
final class StatusZoomEndToEndTests: XCTestCase {
    /// Every number after `"zoom":` and `"digital_zoom":` in a raw status line has at most two decimals.
    private func assertTwoDecimals(_ line: String, file: StaticString = #filePath, line number: UInt = #line) {
        for key in ["zoom", "digital_zoom"] {
            XCTAssertNotNil(line.range(of: "\"\(key)\":[0-9]+(\\.[0-9]{1,2})?[,}]", options: .regularExpression),
                            "\(key) in \(line)", file: file, line: number)
        }
    }

    func testZoomIsTheEffectiveZoomAndDigitalZoomIsApart() throws {
        let shell = try ControlledShell(name: "status-zoom")
        try shell.waitForStatus { $0["state"] as? String == "idle" }

        // The factor 3 picks the 3x lens (tele) with no digital zoom.
        XCTAssertEqual(try shell.ctl(["zoom", "3"]).status, 0)
        let tele = try shell.waitForStatus { $0["lens"] as? String == "tele" }
        XCTAssertEqual(tele["zoom"] as? Double, 3)
        XCTAssertEqual(tele["digital_zoom"] as? Double, 1)

        // 2.2222 is main (1x) with 2.2222 digital zoom: shown to two decimals.
        XCTAssertEqual(try shell.ctl(["zoom", "2.2222"]).status, 0)
        let main = try shell.waitForStatus { $0["lens"] as? String == "main" && ($0["zoom"] as? Double ?? 0) > 2 }
        XCTAssertEqual(main["zoom"] as? Double, 2.22)
        XCTAssertEqual(main["digital_zoom"] as? Double, 2.22)
        let raw = try shell.ctl(["status", "--json"])
        XCTAssertTrue(raw.stdoutText.contains("\"zoom\":2.22}"), raw.stdoutText)
        XCTAssertTrue(raw.stdoutText.contains("\"digital_zoom\":2.22,"), raw.stdoutText)

        // The wide lens (0.5x) and then preset 2x's 400 ms ramp on main: every line read during the ramp has
        // rounded figures.
        XCTAssertEqual(try shell.ctl(["lens", "wide"]).status, 0)
        let wide = try shell.waitForStatus { $0["lens"] as? String == "wide" }
        XCTAssertEqual(wide["zoom"] as? Double, 0.5)
        XCTAssertEqual(try shell.ctl(["zoom", "2x"]).status, 0)
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let result = try shell.ctl(["status", "--json"])
            lines.append(result.stdoutText)
            if result.stdoutText.contains("\"digital_zoom\":2,") { break }
        }
        XCTAssertTrue(lines.last?.contains("\"zoom\":2}") ?? false, lines.last ?? "")
        lines.forEach { assertTwoDecimals($0) }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }
}
