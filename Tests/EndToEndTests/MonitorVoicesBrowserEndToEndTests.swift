import Foundation
import XCTest

/// The monitor page of a rig of voices in headless Chromium through Selenium (`Browser/monitor_voices.py`) against
/// a real-clock shell on `Rigs/e2e-voices.yaml` (two virtual voices beeping at their own pitch, and `follow:`):
/// a strip per voice whose meter moves while a clip records, Mute sending `voice guest mute` and the strip showing
/// it muted once the engine's status says so (then Unmute), gain + raising the host by 3 dB, and the follow toggle
/// turning following off and on; then `pausecam ctl` sending the same lines. Skipped, with the reason, where
/// Chromium or Selenium is missing.
final class MonitorVoicesBrowserEndToEndTests: XCTestCase {
    func testThePageShowsAndDrivesEachVoiceOfARealRig() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps installs chromium, chromium-driver, python3-selenium)")
        }
        let selenium = try ProcessRunner.run("/usr/bin/python3", ["-c", "import selenium"])
        guard selenium.status == 0 else { throw XCTSkip("python3-selenium is missing: \(selenium.stderr)") }
        let rig = ProcessRunner.rig("e2e-voices.yaml")

        let shell = try ControlledShell(name: "voices-browser", extraArguments: ["--web", "127.0.0.1:0"], rig: rig)
        let status = try shell.waitForStatus { $0["web"] is String && (($0["voices"] as? [Any])?.count ?? 0) == 2 }
        let url = try XCTUnwrap(status["web"] as? String, "\(status)")
        // Sound reaches the meters while a clip records.
        let record = try shell.ctl(["record"])
        XCTAssertEqual(record.status, 0, record.stdoutText + record.stderr)
        XCTAssertEqual(status["follow"] as? Bool, true, "the rig's follow: starts on")

        let screenshots = try ProcessRunner.temporaryDirectory("voices-browser-screenshots")
        print("voice strip screenshots: \(screenshots.path)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Browser/monitor_voices.py").path
        let config = #"{"voices": ["host", "guest"], "mute": "guest", "refused": null, "gain": "host", "follow": true}"#
        let run = try ProcessRunner.run("/usr/bin/python3", [script, url, screenshots.path, config])
        XCTAssertEqual(run.status, 0, "stdout: \(run.stdoutText)\nstderr: \(run.stderr)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], run.stdoutText)
        print("voice strips report: \(run.stdoutText)")
        XCTAssertEqual(report["muted_text"] as? String, "Muted")
        XCTAssertEqual(report["gain"] as? [Double], [0, 3])
        XCTAssertEqual((report["follow"] as? [String: Any])?["texts"] as? [String], ["Follow: off", "Follow: on"],
                       "\(report)")
        let after = try shell.waitForStatus { _ in true }
        let voices = try XCTUnwrap(after["voices"] as? [[String: Any]], "\(after)")
        XCTAssertEqual(voices.first { $0["name"] as? String == "host" }?["gain_db"] as? Double, 3)
        XCTAssertEqual(voices.first { $0["name"] as? String == "guest" }?["muted"] as? Bool, false, "unmuted again")

        // `pausecam ctl` passes the same lines.
        let lowered = try shell.ctl(["voice", "host", "gain", "-3dB"])
        XCTAssertEqual(lowered.status, 0, lowered.stdoutText + lowered.stderr)
        let afterCtl = try shell.waitForStatus { status in
            (status["voices"] as? [[String: Any]])?.first { $0["name"] as? String == "host" }?["gain_db"] as? Double == -3
        }
        XCTAssertFalse(afterCtl.isEmpty)
        let followOff = try shell.ctl(["follow", "off"])
        XCTAssertEqual(followOff.status, 0, followOff.stdoutText + followOff.stderr)
        XCTAssertFalse(try shell.waitForStatus { $0["follow"] as? Bool == false }.isEmpty)
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        for line in ["voice guest mute (web)", "voice guest unmute (web)", "voice host gain +3dB (web)"] {
            XCTAssertTrue(shell.running.stdout.contains(line), "\(line) not in:\n\(shell.running.stdout)")
        }
        XCTAssertTrue(shell.running.stdout.contains("follow off (web)"), shell.running.stdout)
        XCTAssertTrue(shell.running.stdout.contains("follow on (web)"), shell.running.stdout)
    }
}
