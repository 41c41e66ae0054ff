import Foundation
import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// The monitor page's live destinations in headless Chromium (`EndToEndTests/Browser/monitor_live.py`) against the
/// real `MonitorWebServer` and `ControlStatusJSON`, with a hand-made destination behind them that, once turned on,
/// is first connecting, then lost, then live with a bitrate and drops: the page is seen to follow the status through
/// every state rather than the click. The engine's own destinations are driven the same way by
/// `MonitorLiveBrowserEndToEndTests`. Skipped, with the reason, where Chromium or Selenium is missing.
final class MonitorLivePageTests: XCTestCase {
    /// One live destination as a status, changed by the `live` lines the page sends.
    final class FakeDestination: Sendable {
        private let state: Guarded<(status: RigStatus, statusesSinceOn: Int, lines: [String])>
        private let parser = CommandParser(lenses: ["wide"])

        init(name: String) {
            var status = RigStatus(state: .idle, scene: 1, timer: .zero, lens: "wide", digitalZoom: 1,
                                   droppedFrames: 0, moviePath: nil)
            status.live = [LiveSinkStatus(name: name, on: false, live: false)]
            state = Guarded((status, 0, []))
        }

        /// The status as the server serves it: once on, three statuses connecting, three lost, then live.
        func statusLine() -> String {
            state.withLock { state in
                if state.status.live[0].on {
                    state.statusesSinceOn += 1
                    let phase = state.statusesSinceOn
                    state.status.live[0].outages = phase > 3 ? 1 : 0
                    state.status.live[0].live = phase > 6
                    state.status.live[0].bitsPerSecond = phase > 6 ? 2_900_000 : 0
                    state.status.live[0].droppedFrames = phase > 6 ? 3 : 0
                }
                return ControlStatusJSON.line(state.status, rig: "Live rig")
            }
        }

        func perform(_ line: String) -> ControlReply {
            state.withLock { state in
                state.lines.append(line)
                guard case .success(.live(let on, let destination)) = parser.parse(line) else {
                    return .error("not a live line: \(line)")
                }
                guard destination == nil || destination == state.status.live[0].name else {
                    return .error("no live destination \(destination ?? "")")
                }
                state.status.live[0].on = on
                if !on {
                    state.status.live[0].live = false
                    state.status.live[0].bitsPerSecond = 0
                }
                state.statusesSinceOn = 0
                return ControlReply(ok: true, message: line)
            }
        }

        var lines: [String] { state.withLock { $0.lines } }
    }

    func testLiveRowsShowTheStatusAndSendLiveOnAndOff() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps installs chromium, chromium-driver, python3-selenium)")
        }
        guard try MonitorWebServerTests.run("/usr/bin/python3", ["-c", "import selenium"]).status == 0 else {
            throw XCTSkip("python3-selenium is missing")
        }
        let destination = FakeDestination(name: "studio")
        let rig = Rig(name: "Live rig", lenses: [Rig.Lens(name: "wide", source: .virtual(color: RGBColor(red: 0x20, green: 0xc0, blue: 0x40)))])
        let server = try MonitorWebServer.start(
            MonitorWebServer.Rig(rig: rig, status: { destination.statusLine() }, command: { destination.perform($0) },
                                 pictures: nil),
            on: MonitorListenAddress(host: "127.0.0.1", port: 0))
        defer { server.stop() }

        let outdir = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-live-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: outdir, withIntermediateDirectories: true)
        print("live row screenshots: \(outdir.path)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("EndToEndTests/Browser/monitor_live.py").path
        let run = try MonitorWebServerTests.run("/usr/bin/python3", [script, server.url, outdir.path,
                                                                     #"{"name": "studio", "reach": "live"}"#])
        let output = String(decoding: run.output, as: UTF8.self)
        XCTAssertEqual(run.status, 0, "stdout: \(output)\nstderr: \(run.error)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output)) as? [String: Any], output)
        print("live rows report: \(output)")

        XCTAssertEqual(destination.lines, ["live on studio", "live off studio"])
        let start = try XCTUnwrap(report["start"] as? [String: String], "\(report)")
        XCTAssertEqual(start["badge"], "off")
        XCTAssertEqual(start["badge_label"], "studio is off")
        XCTAssertEqual(start["toggle_label"], "stream to studio")
        XCTAssertEqual(start["toggle"], "Go live")
        let reached = try XCTUnwrap(report["reached"] as? [String: String], "\(report)")
        XCTAssertEqual(reached["badge"], "LIVE")
        XCTAssertEqual(reached["rate"], "2.9 Mbit/s")
        XCTAssertEqual(reached["drops"], "3 dropped")
        XCTAssertEqual(reached["badge_label"], "studio is live")
        XCTAssertEqual((report["off"] as? [String: String])?["badge"], "off")
        for name in ["live-off.png", "live-on.png", "live-phone.png"] {
            let png = try Data(contentsOf: outdir.appendingPathComponent(name))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4e, 0x47], "\(name) is a PNG")
        }
    }
}
