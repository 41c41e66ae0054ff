import Foundation
import XCTest
@testable import PauseCamCore
@testable import PauseCamSystem

/// The monitor page's voice strips and follow toggle in headless Chromium (`EndToEndTests/Browser/monitor_voices.py`)
/// against the real `MonitorWebServer` and `ControlStatusJSON`, with a desk of hand-made voices behind them: levels
/// that change at every status, `voice` and `follow` carried out on that status, and one mute refused, so the page
/// is seen to show what the status says rather than what was clicked. The engine's own desk is driven the same way
/// by `MonitorVoicesBrowserEndToEndTests`. Skipped, with the reason, where Chromium or Selenium is missing.
final class MonitorVoicesPageTests: XCTestCase {
    /// A rig's voices and follow as a status, changed by the command lines the page sends.
    final class FakeDesk: Sendable {
        /// The voice whose mute is refused.
        static let stubborn = "room"
        private let state: Guarded<(status: RigStatus, statuses: Int, lines: [String])>
        private let parser = CommandParser(lenses: ["wide"])

        init(voices: [String], follow: Bool?) {
            var status = RigStatus(state: .recording, scene: 1, timer: .seconds(1), lens: "wide", digitalZoom: 1,
                                   droppedFrames: 0, moviePath: nil)
            status.voices = voices.map { VoiceStatus(name: $0) }
            status.follow = follow
            state = Guarded((status, 0, []))
        }

        /// The status as the server serves it; every voice's level moves from one status to the next.
        func statusLine() -> String {
            state.withLock { state in
                state.statuses += 1
                for index in state.status.voices.indices {
                    let phase = (state.statuses + index) % 4
                    state.status.voices[index].peakDBFS = phase == 0 ? nil : -48 + Double(phase) * 12
                    state.status.voices[index].holdDBFS = -12
                    state.status.voices[index].clipping = phase == 3
                    state.status.voices[index].speaking = phase >= 2
                }
                return ControlStatusJSON.line(state.status, rig: "Voices rig")
            }
        }

        func perform(_ line: String) -> ControlReply {
            state.withLock { state in
                state.lines.append(line)
                guard case .success(let command) = parser.parse(line) else { return .error("cannot parse \(line)") }
                switch command {
                case .follow(let on):
                    guard state.status.follow != nil else { return .error("this rig has no `follow:`") }
                    state.status.follow = on
                    return ControlReply(ok: true, message: "follow \(on ? "on" : "off")")
                case .voice(let name, let change):
                    guard let index = state.status.voices.firstIndex(where: { $0.name == name }) else {
                        return .error("no voice \(name)")
                    }
                    switch change {
                    case .mute where name == Self.stubborn: return .error("voice \(name) cannot be muted here")
                    case .mute: state.status.voices[index].muted = true
                    case .unmute: state.status.voices[index].muted = false
                    case .gain(let decibels): state.status.voices[index].gainDecibels = decibels
                    }
                    return ControlReply(ok: true, message: line)
                default:
                    return ControlReply(ok: true, message: "did \(line)")
                }
            }
        }

        var lines: [String] { state.withLock { $0.lines } }
    }

    func testVoiceStripsShowTheStatusAndSendTheirCommands() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is missing (scripts/install-deps installs chromium, chromium-driver, python3-selenium)")
        }
        guard try MonitorWebServerTests.run("/usr/bin/python3", ["-c", "import selenium"]).status == 0 else {
            throw XCTSkip("python3-selenium is missing")
        }
        let voices = ["host", "guest", Self.stubbornVoice]
        let desk = FakeDesk(voices: voices, follow: true)
        var rig = Rig(name: "Voices rig", lenses: [Rig.Lens(name: "wide", source: .virtual(color: RGBColor(red: 0x20, green: 0xc0, blue: 0x40)))])
        rig.audio.voices = voices.map { Rig.Voice(name: $0, source: .virtual) }
        rig.follow = Rig.Follow(lenses: [(voice: "host", lens: "wide")], both: "wide")
        let server = try MonitorWebServer.start(
            MonitorWebServer.Rig(rig: rig, status: { desk.statusLine() }, command: { desk.perform($0) }, pictures: nil),
            on: MonitorListenAddress(host: "127.0.0.1", port: 0))
        defer { server.stop() }

        let outdir = FileManager.default.temporaryDirectory.appendingPathComponent("pausecam-voices-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: outdir, withIntermediateDirectories: true)
        print("voice strip screenshots: \(outdir.path)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("EndToEndTests/Browser/monitor_voices.py").path
        let config = #"{"voices": ["host", "guest", "room"], "mute": "guest", "refused": "room", "follow": true, "gain": "host"}"#
        let run = try MonitorWebServerTests.run("/usr/bin/python3", [script, server.url, outdir.path, config])
        let output = String(decoding: run.output, as: UTF8.self)
        XCTAssertEqual(run.status, 0, "stdout: \(output)\nstderr: \(run.error)")
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.output)) as? [String: Any], output)
        print("voice strips report: \(output)")

        // What the page sent, in the shell's own grammar.
        let lines = desk.lines
        XCTAssertTrue(lines.contains("voice room mute"), "\(lines)")
        XCTAssertEqual(lines.filter { $0.hasPrefix("voice guest") }, ["voice guest mute", "voice guest unmute"])
        XCTAssertEqual(lines.filter { $0.hasPrefix("voice host") }, ["voice host gain +3dB"])
        XCTAssertEqual(lines.filter { $0.hasPrefix("follow") }, ["follow off", "follow on"])
        XCTAssertEqual(report["muted_text"] as? String, "Muted")
        XCTAssertEqual(report["gain"] as? [Double], [0, 3])
        let labels = try XCTUnwrap(report["labels"] as? [String: [String: String]], "\(report)")
        XCTAssertEqual(labels["guest"]?["mute"], "mute guest")
        XCTAssertEqual(labels["host"]?["up"], "host gain up 3 dB")
        XCTAssertEqual(labels["host"]?["meter"], "host level in dBFS")
        let follow = try XCTUnwrap(report["follow"] as? [String: Any], "\(report)")
        XCTAssertEqual(follow["texts"] as? [String], ["Follow: off", "Follow: on"])
        for name in ["voices.png", "voices-muted.png", "voices-phone.png"] {
            let png = try Data(contentsOf: outdir.appendingPathComponent(name))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4e, 0x47], "\(name) is a PNG")
        }
    }

    static let stubbornVoice = FakeDesk.stubborn
}
