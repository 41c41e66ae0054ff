import Foundation
import XCTest

/// The OSC endpoint of a real-clock `pausecam shell` on the built binary, driven by liblo's own `oscsend` and heard
/// by its `oscdump`, as Companion or TouchOSC would drive and hear it; junk and strangers by a hand-written client.
/// Every wait polls for a condition with a generous deadline.
final class OSCEndToEndTests: XCTestCase {
    /// The e2e rig with `osc:` added (`body` is the section's lines, indented), in a fresh folder.
    private func rig(_ name: String, osc body: String) throws -> String {
        let folder = try ProcessRunner.temporaryDirectory("\(name)-rig")
        let text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8) + "osc:\n" + body + "\n"
        let path = folder.appendingPathComponent("rig.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The port the shell's OSC endpoint listens on (the rig asks for port 0), from its status.
    private func oscPort(_ shell: ControlledShell) throws -> Int {
        let status = try shell.waitForStatus { ($0["osc"] as? [String: Any])?["listen"] as? String != nil }
        let listen = try XCTUnwrap((status["osc"] as? [String: Any])?["listen"] as? String)
        return try XCTUnwrap(Int(listen.split(separator: ":").last ?? ""), listen)
    }

    private func osc(_ status: [String: Any]) -> [String: Any] { status["osc"] as? [String: Any] ?? [:] }
    private func junk(_ status: [String: Any]) -> [String: Int] { osc(status)["junk"] as? [String: Int] ?? [:] }

    private func assertSent(_ result: ProcessResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
    }

    /// `oscsend` records, switches the lens, zooms, pauses, resumes and stops; `oscdump` on the rig's feedback port
    /// hears each state as it changes and the whole state once a second; the movie has the scene named over OSC.
    func testOscsendDrivesTheShellAndOscdumpHearsItsState() throws {
        let dump = try OSCDump()
        defer { dump.stop() }
        let shell = try ControlledShell(name: "osc-drive", rig: try rig("osc-drive", osc: """
              listen: "127.0.0.1:0"
              feedback: ["127.0.0.1:\(dump.port)"]
            """))
        let port = try oscPort(shell)
        XCTAssertTrue(dump.waitForLine { $0.hasSuffix("/pausecam/state s \"idle\"") }, dump.lines.suffix(20).joined(separator: "\n"))

        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/record", ["s", "Intro"]))
        try shell.waitForStatus { $0["state"] as? String == "recording" }
        for expected in ["/pausecam/state s \"recording\"", "/pausecam/recording i 1", "/pausecam/scene/name s \"Intro\"",
                         "/pausecam/tally/main s \"program\"", "/pausecam/tally/main/program i 1"] {
            XCTAssertTrue(dump.waitForLine { $0.hasSuffix(expected) }, "no \(expected): \(dump.lines.suffix(30))")
        }
        // The once-a-second state: the timer goes on without any command.
        XCTAssertTrue(dump.waitForLine { line in
            guard line.contains("/pausecam/timer f "), let value = Double(line.split(separator: " ").last ?? "") else {
                return false
            }
            return value >= 1.0
        }, "the timer never passed a second: \(dump.lines.suffix(30))")

        // Once the clip's rate is known the status has the recording time left, and the feedback its minutes.
        let measured = try shell.waitForStatus { $0["time_left_s"] as? Int != nil }
        let minutes = (measured["time_left_s"] as? Int ?? 0) / 60
        XCTAssertTrue(dump.waitForLine { line in
            guard line.contains("/pausecam/disk/minutes i "), let value = Int(line.split(separator: " ").last ?? "") else {
                return false
            }
            return abs(value - minutes) <= 1
        }, "no disk minutes near \(minutes): \(dump.lines.suffix(30))")

        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/preview", ["s", "tele"]))
        XCTAssertTrue(dump.waitForLine { $0.hasSuffix("/pausecam/tally/tele s \"preview\"") }, "\(dump.lines.suffix(30))")
        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/lens", ["s", "tele"]))
        try shell.waitForStatus { $0["lens"] as? String == "tele" }
        XCTAssertTrue(dump.waitForLine { $0.hasSuffix("/pausecam/lens s \"tele\"") })
        XCTAssertTrue(dump.waitForLine { $0.hasSuffix("/pausecam/tally/tele s \"program\"") })

        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/zoom", ["f", "2.0"]))
        try shell.waitForStatus { ($0["zoom"] as? Double ?? 0) > 1.9 }
        XCTAssertTrue(dump.waitForLine { $0.hasSuffix("/pausecam/zoom f 2.000000") }, "\(dump.lines.suffix(30))")

        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/pause"))
        try shell.waitForStatus { $0["state"] as? String == "paused" }
        XCTAssertTrue(dump.waitForLine { $0.hasSuffix("/pausecam/state s \"paused\"") })
        XCTAssertTrue(dump.waitForLine { $0.hasSuffix("/pausecam/paused i 1") })

        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/button/toggle", ["f", "1.0"]))
        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/button/toggle", ["f", "0.0"]))
        let resumed = try shell.waitForStatus { $0["state"] as? String == "recording" && ($0["scene"] as? Int) == 2 }
        try shell.waitForStatus { ($0["timer"] as? Double ?? 0) >= (resumed["timer"] as? Double ?? 0) + 0.5 }

        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/stop"))
        let moviePath = try XCTUnwrap(resumed["file"] as? String)
        let sidecarPath = String(moviePath.dropLast(3)) + "json"
        try shell.waitForStatus { $0["state"] as? String == "idle" && FileManager.default.fileExists(atPath: sidecarPath) }
        XCTAssertTrue(dump.waitForLine { $0.hasSuffix("/pausecam/tally/tele s \"off\"") })
        let status = try shell.waitForStatus()
        XCTAssertEqual(osc(status)["handled"] as? Int, 8, "\(status)")
        XCTAssertEqual(osc(status)["junk_total"] as? Int, 0, "\(status)")

        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        for line in ["* record Intro (osc): recording scene 1", "* lens tele (osc): lens tele", "* pause (osc): pause",
                     "* toggle (osc): resume", "* stop (osc): stopping"] {
            XCTAssertTrue(shell.running.stdout.contains(line), "no \(line) in \(shell.running.stdout)")
        }
        let chapters = try MediaProbe(path: moviePath).chapters()
        XCTAssertEqual(chapters.map(\.title), ["Intro", "Scene 2"])
        XCTAssertGreaterThan(try MediaProbe(path: moviePath).duration(), 1.0)
    }

    /// Typed replies go to the sender; junk (unknown addresses, wrong types, broken and 64 KiB packets, a flood)
    /// changes nothing and is counted; a sender the allow-list does not name (127.0.0.2) is neither obeyed nor
    /// answered.
    func testJunkChangesNothingIsCountedAndStrangersAreNotAnswered() throws {
        _ = try OSCTestClient.tool("oscsend")
        let shell = try ControlledShell(name: "osc-junk", rig: try rig("osc-junk", osc: """
              listen: "127.0.0.1:0"
              allow: ["127.0.0.1"]
            """))
        let port = try oscPort(shell)
        let client = try OSCTestClient()
        client.send("/pausecam/record", [.string("Take")], to: port)
        let reply = try XCTUnwrap(client.receive(until: { $0.address == "/pausecam/reply" }))
        XCTAssertEqual(reply.arguments.prefix(2), ["record", "1"])
        XCTAssertTrue(reply.arguments.last?.hasPrefix("recording scene 1") == true, "\(reply)")
        let before = try shell.waitForStatus { $0["state"] as? String == "recording" }

        client.send("/pausecam/bogus", [.int(3)], to: port)
        XCTAssertEqual(client.receive(until: { $0.address == "/pausecam/error" }),
                       .init(address: "/pausecam/error", arguments: ["/pausecam/bogus", "unknown_address"]))
        client.send("/pausecam/stop", [.blob([1, 2, 3])], to: port)
        XCTAssertEqual(client.receive(until: { $0.address == "/pausecam/error" })?.arguments.last, "wrong_type")
        client.send("/pausecam/lens", [.string("mian")], to: port)
        XCTAssertEqual(client.receive(until: { $0.address == "/pausecam/reply" })?.arguments,
                       ["lens", "0", "unknown lens \"mian\"; did you mean \"main\"?"])
        client.send(bytes: OSCTestClient.padded("/pausecam/pause") + [1, 2, 3], to: port)
        XCTAssertEqual(client.receive(until: { $0.address == "/pausecam/error" })?.arguments.last, "malformed")
        client.send("/pausecam/pause", [.string(String(repeating: "x", count: 65_000))], to: port)
        XCTAssertEqual(client.receive(until: { $0.address == "/pausecam/error" })?.arguments.last, "too_large")
        assertSent(try OSCTestClient.oscsend(port: port, "/pausecam/stop", ["N"]))
        for _ in 0..<3000 { client.send("/pausecam/flood", [.int(1)], to: port) }
        let counted = try shell.waitForStatus { status in
            let junk = self.junk(status)
            return (junk["over_rate"] ?? 0) > 0 && (junk["wrong_type"] ?? 0) >= 2
        }
        let junk = self.junk(counted)
        XCTAssertEqual(junk["too_large"], 1, "\(junk)")
        XCTAssertEqual(junk["malformed"], 1, "\(junk)")
        XCTAssertEqual(junk["refused"], 1, "\(junk)")
        XCTAssertGreaterThanOrEqual(junk["unknown_address"] ?? 0, 2, "\(junk)")
        XCTAssertEqual(counted["state"] as? String, "recording", "junk stopped or paused the take")
        XCTAssertEqual(counted["scene"] as? Int, before["scene"] as? Int)
        XCTAssertEqual(counted["lens"] as? String, before["lens"] as? String)

        // A stranger: 127.0.0.2 is loopback, but the allow-list names only 127.0.0.1.
        let stranger = try OSCTestClient(host: "127.0.0.2")
        stranger.send("/pausecam/stop", to: port)
        try shell.waitForStatus { (self.junk($0)["not_allowed"] ?? 0) >= 1 }
        // The endpoint reads in order: once a later allowed message is answered, the stranger's was handled. After
        // the flood the budget may still drop a few, so ask until an answer comes.
        var answered = false
        let deadline = Date().addingTimeInterval(30)
        while !answered && Date() < deadline {
            client.send("/pausecam/status", to: port)
            answered = client.receive(until: { $0.address == "/pausecam/reply" && $0.arguments.first == "status" },
                                      seconds: 0.5) != nil
        }
        XCTAssertTrue(answered, "the allowed client is no longer answered")
        XCTAssertFalse(stranger.hasPending, "a sender beyond the allow-list was answered")
        XCTAssertEqual(try shell.waitForStatus()["state"] as? String, "recording", "a stranger stopped the take")

        // A client that subscribes hears the state at once.
        client.send("/pausecam/subscribe", to: port)
        XCTAssertNotNil(client.receive(until: { $0.address == "/pausecam/state" && $0.arguments == ["recording"] }))
        client.send("/pausecam/stop", to: port)
        XCTAssertNotNil(client.receive(until: { $0.address == "/pausecam/reply" && $0.arguments.first == "stop" }))
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
    }
}
