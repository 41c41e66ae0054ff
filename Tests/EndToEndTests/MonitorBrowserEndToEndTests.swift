import Foundation
import XCTest

/// The monitor page in headless Chromium through Selenium (`Browser/monitor_page.py`) against a real-clock shell:
/// the program picture in the active lens's colour (idle, after a tile tap while recording, after one while
/// paused), a pinch zooming within the digital zoom limit, record, the timer advancing, pause freezing it, the
/// Retake button sending it back, stop naming the saved clip, its thumbnail
/// loading and a tap on it playing the movie in a `<video>`, portrait and landscape layouts with
/// screenshots (their folder is printed). Skipped, with the reason, where Chromium or Selenium is missing.
final class MonitorBrowserEndToEndTests: XCTestCase {
    func testThePageRecordsPausesAndStopsInHeadlessChromium() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps installs chromium, chromium-driver, python3-selenium)")
        }
        let selenium = try ProcessRunner.run("/usr/bin/python3", ["-c", "import selenium"])
        guard selenium.status == 0 else { throw XCTSkip("python3-selenium is missing: \(selenium.stderr)") }

        let shell = try ControlledShell(name: "browser", extraArguments: ["--web", "127.0.0.1:0"])
        let status = try shell.waitForStatus { $0["web"] is String }
        let url = try XCTUnwrap(status["web"] as? String)
        let screenshots = try ProcessRunner.temporaryDirectory("browser-screenshots")
        print("monitor screenshots: \(screenshots.path)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Browser/monitor_page.py").path
        let run = try ProcessRunner.run("/usr/bin/python3", [script, url, screenshots.path])
        XCTAssertEqual(run.status, 0, "stdout: \(run.stdoutText)\nstderr: \(run.stderr)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], run.stdoutText)
        print("monitor page report: \(run.stdoutText)")
        let lastClip = try XCTUnwrap(report["last_clip"] as? String)
        XCTAssertTrue(lastClip.hasPrefix("saved e2e-rig") && lastClip.hasSuffix(".mov"), lastClip)
        // The script waited for main's colour at idle, tele's after the tile tap and wide's after the next one.
        XCTAssertNotNil(report["tele_seconds"] as? Double, "\(report)")
        // A virtual lens has no focus or exposure control: the page shows the camera's answer, not silence.
        XCTAssertTrue((report["tap_note"] as? String)?.contains("no focus control") ?? false, "\(report)")
        // The tap is the point of the picture (`focus at`), and the reply says what the lens lacks for it.
        XCTAssertTrue((report["tap_note"] as? String)?.hasPrefix(
            "lens main has no focus control (no region of interest, no autofocus); nothing changed") ?? false,
                      "\(report)")
        // Selenium clicks the picture's middle: the point sent is its centre, to within a pixel.
        let tapLog = try XCTUnwrap(report["tap_log"] as? String, "\(report)")
        let sent = tapLog.components(separatedBy: " (web): ").first?.split(separator: " ") ?? []
        XCTAssertEqual(sent.prefix(2), ["focus", "at"], tapLog)
        let point = sent.dropFirst(2).compactMap { Double($0) }
        XCTAssertEqual(point.count, 2, tapLog)
        for value in point { XCTAssertEqual(value, 0.5, accuracy: 0.005, tapLog) }
        XCTAssertEqual(report["ev_shown"] as? Bool, false, "no EV slider on a lens without exposure control: \(report)")
        XCTAssertEqual(report["resumed_scene"] as? String, "scene 2")
        let pinched = try XCTUnwrap(report["pinch_zoom"] as? Double, "\(report)")
        let limit = try XCTUnwrap(report["max_digital_zoom"] as? Double, "\(report)")
        XCTAssertTrue(pinched > 1 && pinched <= limit, "pinch zoomed to \(pinched), limit \(limit)")
        let retake = try XCTUnwrap(report["retake"] as? [String: Any], "\(report)")
        XCTAssertEqual(retake["scene"] as? String, "scene 2", "a retake records the same scene again")
        XCTAssertTrue((retake["log"] as? String)?.contains("again from") ?? false, "\(retake)")
        for name in ["portrait", "landscape"] {
            let png = try Data(contentsOf: screenshots.appendingPathComponent("\(name).png"))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4e, 0x47], "\(name).png is a PNG")
        }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        let movies = try FileManager.default.contentsOfDirectory(atPath: shell.outputDirectory.path).filter { $0.hasSuffix(".mov") }
        XCTAssertEqual(movies.count, 1, "\(movies)")
        let probe = MediaProbe(path: shell.outputDirectory.appendingPathComponent(movies[0]).path)
        XCTAssertGreaterThan(try probe.duration(), 0.4)
        XCTAssertEqual(try probe.chapters().count, 2, "record, pause, resume: two scenes")
        XCTAssertTrue(shell.running.stdout.contains("* toggle (web): pause:"), shell.running.stdout)
    }
}
