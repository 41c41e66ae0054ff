import Foundation
import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// What the monitor page makes of status fields a real rig on this machine cannot produce on demand, in headless
/// Chromium (`EndToEndTests/Browser/monitor_status_page.py`) against the real `MonitorWebServer` with hand-written
/// statuses: tiles coloured by each lens's `tally` (program red, preview green; the active lens white while no lens
/// is on air) and the active lens marked red without a tally; "holding last picture" on a tile after `lens_holding` and gone when the lens is live again; recording time
/// left (`time_left_s`) as "1 h 12 min left", in the warning style from `time_left_warning`; the EV slider on a
/// camera's lens that has its camera, not on one without; the single microphone's clipping light when the clip's
/// clipped samples grow, and its silence warning after 10 s without sound. The page asks for each status with `phase NAME`, a line this fake answers.
/// Skipped, with the reason, where Chromium or Selenium is missing.
final class MonitorStatusPageTests: XCTestCase {
    /// The status of each phase; `phase NAME` switches, `holding LENS` and `live LENS` publish the lens's event.
    final class FakeRig: Sendable {
        static let phases: [String: String] = [
            "tally": #"{"host":"studio-pi","rig":"Status rig","state":"recording","scene":1,"timer":1,"timer_text":"00:00:01.000","lens":"main","zoom":1,"#
                + #""dropped_frames":0,"lenses":[{"name":"wide","tally":"preview"},{"name":"main","tally":"program"},"#
                + #"{"name":"desk","tally":"off"}],"lenses_with_camera":["wide","main","desk"],"time_left_s":4320,"#
                + #""time_left_warning":false,"microphone":{"peak_dbfs":-20,"clipped_samples":0},"voices":[]}"#,
            "offair": #"{"host":"studio-pi","rig":"Status rig","state":"idle","scene":0,"timer":0,"timer_text":"00:00:00.000","lens":"main","zoom":1,"#
                + #""dropped_frames":0,"lenses":[{"name":"wide","tally":"off"},{"name":"main","tally":"off"},"#
                + #"{"name":"desk","tally":"off"}],"lenses_with_camera":["wide","main","desk"],"voices":[]}"#,
            "quiet": #"{"host":"studio-pi","rig":"Status rig","state":"recording","scene":1,"timer":3,"timer_text":"00:00:03.000","lens":"desk","zoom":2,"#
                + #""dropped_frames":0,"lenses":["wide","main","desk"],"lenses_with_camera":["wide","main","desk"],"#
                + #""microphone":{"peak_dbfs":null,"clipped_samples":48},"voices":[]}"#,
            "plain": #"{"host":"studio-pi","rig":"Status rig","state":"idle","scene":0,"timer":0,"timer_text":"00:00:00.000","lens":"wide","zoom":0.5,"#
                + #""dropped_frames":0,"lenses":["wide","main","desk"],"lenses_with_camera":["wide","main"],"#
                + #""time_left_s":540,"time_left_warning":true,"microphone":{"peak_dbfs":-20,"clipped_samples":null},"voices":[]}"#,
            "camera": #"{"host":"studio-pi","rig":"Status rig","state":"recording","scene":1,"timer":2,"timer_text":"00:00:02.000","lens":"desk","zoom":2,"#
                + #""dropped_frames":0,"lenses":["wide","main","desk"],"lenses_with_camera":["wide","main","desk"],"#
                + #""time_left_s":null,"microphone":{"peak_dbfs":-1,"clipped_samples":48},"voices":[]}"#,
        ]
        private let state = Guarded((phase: "tally", server: MonitorWebServer?.none, statuses: 0))

        func attach(_ server: MonitorWebServer) { state.withLock { $0.server = server } }

        /// The phase's status; in `camera` the clip's clipped samples grow by 48 at every status.
        func statusLine() -> String {
            let (phase, count) = state.withLock { state in
                state.statuses += 1
                return (state.phase, state.statuses)
            }
            let line = Self.phases[phase] ?? "{}"
            return phase == "camera" ? line.replacingOccurrences(of: "\"clipped_samples\":48", with: "\"clipped_samples\":\(48 * count)") : line
        }

        func perform(_ line: String) -> ControlReply {
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 2 else { return ControlReply(ok: true, message: "did \(line)") }
            switch words[0] {
            case "phase":
                guard Self.phases[words[1]] != nil else { return .error("no phase \(words[1])") }
                state.withLock { $0.phase = words[1] }
            case "holding":
                state.withLock { $0.server }?.publish(.lensHolding(lens: words[1]))
            case "live":
                state.withLock { $0.server }?.publish(.lensLive(lens: words[1], requested: .zero, effective: .zero))
            default:
                break
            }
            return ControlReply(ok: true, message: "did \(line)")
        }
    }

    func testThePageShowsTallyHoldingTimeLeftExposureAndClipping() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps installs chromium, chromium-driver, python3-selenium)")
        }
        guard try MonitorWebServerTests.run("/usr/bin/python3", ["-c", "import selenium"]).status == 0 else {
            throw XCTSkip("python3-selenium is missing")
        }
        let fake = FakeRig()
        let colour = RGBColor(red: 0x20, green: 0xc0, blue: 0x40)
        let rig = Rig(name: "Status rig", lenses: [Rig.Lens(name: "wide", zoom: 0.5, source: .virtual(color: colour)),
                                                   Rig.Lens(name: "main", source: .virtual(color: colour)),
                                                   Rig.Lens(name: "desk", zoom: 2, source: .camera(.serial("2F4A1C")))])
        let server = try MonitorWebServer.start(
            MonitorWebServer.Rig(rig: rig, status: { fake.statusLine() }, command: { fake.perform($0) }, pictures: nil),
            on: MonitorListenAddress(host: "127.0.0.1", port: 0))
        defer { server.stop() }
        fake.attach(server)

        let outdir = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-status-page-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: outdir, withIntermediateDirectories: true)
        print("status page screenshots: \(outdir.path)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("EndToEndTests/Browser/monitor_status_page.py").path
        let run = try MonitorWebServerTests.run("/usr/bin/python3", [script, server.url, outdir.path])
        let output = String(decoding: run.output, as: UTF8.self)
        XCTAssertEqual(run.status, 0, "stdout: \(output)\nstderr: \(run.error)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output)) as? [String: Any], output)
        print("status page report: \(output)")
        XCTAssertEqual(report["title"] as? String, "Status rig on studio-pi — PauseCam")
        XCTAssertEqual(report["tally"] as? [String: String], ["wide": "preview", "main": "program", "desk": ""])
        XCTAssertEqual(report["off_air_active"] as? String, "rgb(255, 255, 255)", "idle: the active lens framed white, not red")
        XCTAssertEqual(report["time_left"] as? [String], ["1 h 12 min left", "9 min left"])
        XCTAssertEqual(report["holding"] as? [String], ["holding last picture", ""])
        XCTAssertEqual(report["ev"] as? [Bool], [false, true], "no slider on a virtual lens, one on the camera's")
        XCTAssertEqual(report["silent"] as? String, "silent — is the microphone on?")
    }
}
