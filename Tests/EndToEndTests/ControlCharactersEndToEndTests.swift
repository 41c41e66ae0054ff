import Foundation
import XCTest

/// User text with control characters, on the built binary: one control request is one command whatever it holds
/// (`ctl` refuses a word with a newline, the server a line with a carriage return or an escape, and the recording
/// goes on), and the shell prints a mark's or a chapter's escapes visibly while the sidecar keeps them as given.
final class ControlCharactersEndToEndTests: XCTestCase {
    private func timer(_ object: [String: Any]) -> Double { object["timer"] as? Double ?? -1 }

    /// `ctl mark $'take 3\nstop'` printed `marked "take 3"`, exited 0 and stopped the recording: the client joined
    /// its words and sent the newline raw. Now the client refuses it, and a raw client that sends a carriage return
    /// or an escape inside a line gets one error for the whole line; the recording goes on through all of it.
    func testAControlRequestWithControlCharactersIsRefusedWholeAndTheRecordingGoesOn() throws {
        let shell = try ControlledShell(name: "ctl-control-characters")
        try shell.waitForStatus()
        XCTAssertEqual(try shell.ctl(["record", "Intro"]).status, 0)
        let started = try shell.waitForStatus { self.timer($0) >= 0.5 }

        let injected = try shell.ctl(["mark", "take 3\nstop"])
        XCTAssertEqual(injected.status, 2, injected.stdoutText + injected.stderr)
        XCTAssertEqual(injected.stdoutText, "")
        XCTAssertTrue(injected.stderr.contains("\"take 3^Jstop\" contains a control character")
                      && injected.stderr.contains("nothing was sent"), injected.stderr)
        let escape = try shell.ctl(["mark", "\u{1B}]0;pwned\u{7}"])
        XCTAssertEqual(escape.status, 2, escape.stdoutText + escape.stderr)

        let raw = try XCTUnwrap(RawSocketClient(path: shell.socketPath))
        for line in ["mark take 3\rstop", "mark \u{1B}]0;pwned\u{7}", "mark a\u{7F}b", "stop\u{1B}"] {
            raw.send(line: line)
            let reply = try XCTUnwrap(raw.readLine(), line)
            XCTAssertTrue(reply.hasPrefix("error the line contains a control character")
                          && reply.contains("nothing was done"), reply)
        }
        // A line ended by CR LF is still one plain line, and the connection goes on after the refusals.
        raw.send(line: "status\r")
        let status = try XCTUnwrap(raw.readLine())
        XCTAssertTrue(status.hasPrefix("ok state recording"), status)
        let later = try shell.waitForStatus { self.timer($0) >= self.timer(started) + 1.0 }
        XCTAssertEqual(later["state"] as? String, "recording")
        XCTAssertEqual(later["scene"] as? Int, 1)

        XCTAssertEqual(try shell.ctl(["stop"]).status, 0)
        let moviePath = try XCTUnwrap(later["file"] as? String)
        let sidecarPath = String(moviePath.dropLast(3)) + "json"
        try shell.waitForStatus { $0["state"] as? String == "idle" && FileManager.default.fileExists(atPath: sidecarPath) }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        let sidecar = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecarPath)))
                                    as? [String: Any])
        let scenes = try XCTUnwrap(sidecar["scenes"] as? [[String: Any]])
        XCTAssertEqual(scenes.count, 1)
        XCTAssertEqual((scenes[0]["markers"] as? [Any])?.count ?? 0, 0, "no refused line left a marker")
    }

    /// A mark and a chapter name with terminal escapes (a window-title change, a colour) typed into a piped shell:
    /// everything the shell prints shows them as `^[`…`^G`, on standard output and standard error, and the sidecar
    /// keeps the text exactly as typed.
    func testTheShellPrintsControlCharactersVisiblyAndTheSidecarKeepsThem() throws {
        let out = try ProcessRunner.temporaryDirectory("shell-control-characters")
        let mark = "\u{1B}]0;pwned\u{7} take"
        let chapter = "\u{1B}[31mred"
        let input = "record Intro\nwait 0.5s\nmark \(mark)\nchapter \(chapter)\nwait 0.5s\nlens \u{1B}[2J\nstop\n"
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated",
                                            "--output", out.path], input: input)
        XCTAssertEqual(result.status, 1, "the lens command fails: \(result.stderr)")
        let printed = result.stdoutText + result.stderr
        for control in ["\u{1B}", "\u{7}"] {
            XCTAssertFalse(printed.contains(control), "a raw control character was printed: \(printed.debugDescription)")
        }
        XCTAssertTrue(result.stdoutText.contains("> mark ^[]0;pwned^G take\n"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("marked \"^[]0;pwned^G take\""), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("> chapter ^[[31mred\n"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("^[[31mred"), result.stdoutText)
        XCTAssertTrue(result.stderr.contains("error: line 6: lens ^[[2J: "), result.stderr)

        let sidecarName = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: out.path)
                                            .first { $0.hasSuffix(".json") })
        let sidecar = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(sidecarName)))
                                    as? [String: Any])
        let scenes = try XCTUnwrap(sidecar["scenes"] as? [[String: Any]])
        XCTAssertEqual(scenes.map { $0["title"] as? String }, ["Intro", chapter])
        let markers = (scenes[0]["markers"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
        XCTAssertEqual(markers, [mark])
    }
}
