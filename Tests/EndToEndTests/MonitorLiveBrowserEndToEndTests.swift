import Foundation
import XCTest

/// The monitor page's live destinations in headless Chromium through Selenium (`Browser/monitor_live.py`) against a
/// real-clock shell whose rig streams to `studio`, an SRT destination that starts off. `ctl watch` first sees the
/// destination lost while nothing listens (`ctl live on studio`, then off); then, with the real `ffmpeg` listening,
/// the page shows `studio` off, its toggle sends `live on studio` and the row follows the engine's status to LIVE
/// with a bitrate, `ctl watch` prints it connected (`live_back`, after that loss), and the toggle turns it off
/// again. Skipped, with the reason, where Chromium, Selenium or ffmpeg is missing.
final class MonitorLiveBrowserEndToEndTests: XCTestCase {
    func testThePageShowsAndTogglesARealLiveDestination() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3", "/usr/bin/ffmpeg"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps installs chromium, chromium-driver, python3-selenium, ffmpeg)")
        }
        let selenium = try ProcessRunner.run("/usr/bin/python3", ["-c", "import selenium"])
        guard selenium.status == 0 else { throw XCTSkip("python3-selenium is missing: \(selenium.stderr)") }
        let directory = try ProcessRunner.temporaryDirectory("live-browser")
        let port = Int.random(in: 20_000...60_000)
        let rig = """
        name: E2E rig
        output: {size: 320x180, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}, size: 320x180, fps: 30}
        live:
          stream: [{url: "srt://127.0.0.1:\(port)?mode=caller", name: studio, bitrate: 300k, start: off}]
        """
        let path = directory.appendingPathComponent("live.yaml").path
        try rig.write(toFile: path, atomically: true, encoding: .utf8)

        let shell = try ControlledShell(name: "live-browser", extraArguments: ["--web", "127.0.0.1:0"], rig: path)
        let status = try shell.waitForStatus { ($0["web"] is String) && (($0["live"] as? [Any])?.count ?? 0) == 1 }
        let url = try XCTUnwrap(status["web"] as? String, "\(status)")
        let studio = try XCTUnwrap((status["live"] as? [[String: Any]])?.first, "\(status)")
        XCTAssertEqual(studio["name"] as? String, "studio")
        XCTAssertEqual(studio["on"] as? Bool, false)

        let watcher = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        watcher.send(line: "watch")
        XCTAssertTrue(watcher.readLine()?.hasPrefix("ok watching") ?? false)
        /// The next watched event of one of `types` for studio, skipping others; nil if none comes in time.
        func nextEvent(_ types: String...) -> [String: Any]? {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, let line = watcher.readLine(seconds: 60) {
                if let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                   types.contains(event["type"] as? String ?? ""), event["destination"] as? String == "studio" {
                    return event
                }
            }
            return nil
        }

        // Nothing listens yet: on, the destination is lost, and `ctl watch` says so.
        let on = try shell.ctl(["live", "on", "studio"])
        XCTAssertEqual(on.status, 0, on.stdoutText + on.stderr)
        let lost = nextEvent("live_lost")
        XCTAssertNotNil(lost, "ctl watch printed no live_lost for studio")
        let off = try shell.ctl(["live", "off", "studio"])
        XCTAssertEqual(off.status, 0, off.stdoutText + off.stderr)
        XCTAssertFalse(try shell.waitForStatus {
            ($0["live"] as? [[String: Any]])?.first?["on"] as? Bool == false
        }.isEmpty)

        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        listener.arguments = ["-nostdin", "-v", "error", "-f", "mpegts", "-i",
                              "srt://127.0.0.1:\(port)?mode=listener", "-c", "copy", "-f", "null", "-"]
        listener.standardOutput = FileHandle.nullDevice
        listener.standardError = FileHandle.nullDevice
        try listener.run()
        defer { if listener.isRunning { listener.terminate(); listener.waitUntilExit() } }

        let screenshots = try ProcessRunner.temporaryDirectory("live-browser-screenshots")
        print("live row screenshots: \(screenshots.path)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Browser/monitor_live.py").path
        let run = try ProcessRunner.run("/usr/bin/python3", [script, url, screenshots.path,
                                                             #"{"name": "studio", "reach": "live"}"#])
        XCTAssertEqual(run.status, 0, "stdout: \(run.stdoutText)\nstderr: \(run.stderr)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], run.stdoutText)
        print("live rows report: \(run.stdoutText)")
        XCTAssertEqual((report["start"] as? [String: String])?["badge"], "off")
        let reached = try XCTUnwrap(report["reached"] as? [String: String], "\(report)")
        XCTAssertEqual(reached["badge"], "LIVE")
        XCTAssertTrue(reached["rate"]?.hasSuffix("bit/s") ?? false, "\(reached)")
        XCTAssertEqual((report["off"] as? [String: String])?["badge"], "off")

        // Connected after the loss above, the engine tells it as the destination back (`live_back`, with the
        // outage); a destination never lost before would say `live_started`.
        let started = nextEvent("live_started", "live_back")
        XCTAssertNotNil(started, "ctl watch printed neither live_started nor live_back for studio")
        print("ctl watch, once connected: \(started ?? [:])")
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        for line in ["live on studio (web)", "live off studio (web)"] {
            XCTAssertTrue(shell.running.stdout.contains(line), "\(line) not in:\n\(shell.running.stdout)")
        }
    }
}
