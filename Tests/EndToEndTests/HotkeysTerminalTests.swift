import Foundation
import PauseCamCore
import XCTest

/// The shell's hotkey mode on a real terminal (tmux): single keys act without Enter, the rig's `keys:` adds its
/// own, `q` leaves the mode and gives the terminal back to line editing; from a pipe, `keys` needs a terminal.
final class HotkeysTerminalTests: XCTestCase {
    /// The end-to-end rig (wide, main, tele) starting on `wide`, so key 2 (the second lens, main) is a switch, with
    /// a key of its own: `x` marks "custom".
    func rig(in directory: URL) throws -> String {
        var text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        text = text.replacingOccurrences(of: "default_lens: main", with: "default_lens: wide")
        text += "keys: {x: mark custom}\n"
        let path = directory.appendingPathComponent("keys.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testSingleKeysRecordMarkSwitchAndPauseThenQLeavesTheMode() throws {
        guard let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else {
            throw XCTSkip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
        }
        let directory = try ProcessRunner.temporaryDirectory("hotkeys")
        let output = directory.appendingPathComponent("out")
        let tmux = ShellTerminalTests.Tmux(binary: tmuxPath)
        defer { _ = try? tmux.run(["kill-server"]) }
        try tmux.start("env XDG_STATE_HOME=\(directory.path) \(BinaryLocator.pausecam.path) shell \(try rig(in: directory))"
                       + " --keys --clock real --output \(output.path) --socket \(directory.path)/keys.sock;"
                       + " echo PAUSECAM-EXIT $?; stty -a | grep -o -- '-\\?icanon'; sleep 60")
        // The map is shown, and the prompt says the mode.
        XCTAssertNotNil(tmux.waitForScreen { $0.contains("keys mode:") && $0.contains("keys idle wide >") },
                        tmux.screen())
        let map = tmux.screen()
        XCTAssertTrue(map.contains("space  toggle") && map.contains("2      lens main") && map.contains("x      mark custom"),
                      map)

        func key(_ name: String, until predicate: @escaping (String) -> Bool) throws {
            try tmux.run(["send-keys", "-t", "shell", name])
            XCTAssertNotNil(tmux.waitForScreen(predicate), "after key \(name): \(tmux.screen())")
        }
        try key("Space") { $0.contains("keys ● REC scene 1 ") }
        try key("m") { $0.contains("marked \"Marker 1\"") }
        try key("2") { $0.contains("[2] lens main") && $0.contains(" main >") }
        try key("x") { $0.contains("marked \"custom\"") }
        try key("Space") { $0.contains("keys ‖ PAUSED scene 1 ") }
        try key("q") { screen in
            screen.contains("left the keys mode") && tmux.promptLine().hasPrefix("‖ PAUSED scene 1 ")
        }
        // Back to lines: a typed command is echoed and needs Enter.
        try tmux.run(["send-keys", "-t", "shell", "stop", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 20) { $0.contains("* saved ") }, tmux.screen())
        try tmux.run(["send-keys", "-t", "shell", "quit", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 20) { $0.contains("PAUSECAM-EXIT 0") }, tmux.screen())
        // The terminal was given back in line mode.
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { $0.contains("\nicanon") }, tmux.screen())

        let sidecar = try Sidecar.decode(Data(contentsOf: output.appendingPathComponent("e2e-rig.json")))
        XCTAssertEqual(sidecar.scenes.count, 1)
        XCTAssertEqual(sidecar.scenes.first?.markers.map(\.text), ["Marker 1", "custom"])
        XCTAssertEqual(sidecar.switches.map(\.lens), ["main"])
        XCTAssertEqual(sidecar.scenes.first?.lenses.map(\.lens), ["wide", "main"])
        XCTAssertEqual(try MediaProbe(path: output.appendingPathComponent("e2e-rig.mov").path).chapters().count, 1)
    }

    func testKeysFromAPipeSaysItNeedsATerminalAndChangesNothing() throws {
        let output = try ProcessRunner.temporaryDirectory("hotkeys-pipe")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated",
                                            "--output", output.path], input: "keys\nstatus\n")
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("error: line 1: keys: keys needs a terminal"), result.stderr)
        XCTAssertTrue(result.stdoutText.contains("state idle"), result.stdoutText)
    }

    /// A key bound to a command that lets time pass (`wait 1h`, `run long`) would leave the keys mode deaf to `q`
    /// until it ended: `check` refuses it with its position, and `shell` and `run` refuse the rig (exit 2).
    func testAKeyThatWouldKeepTheKeysModeWaitingIsRefusedWithItsPosition() throws {
        let directory = try ProcessRunner.temporaryDirectory("hotkeys-long")
        var text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        text += "keys:\n  w: wait 1h\n  l: run long\n  x: mark fine\n"
        let path = directory.appendingPathComponent("keys.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let line = text.components(separatedBy: "\n").count - 3
        let check = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        XCTAssertEqual(check.status, 2, check.stderr)
        XCTAssertTrue(check.stderr.contains("\(path):\(line):6: keys.w: \"wait 1h\" cannot be a hotkey: a key acts at "
                                            + "once, and `wait` lets time pass"), check.stderr)
        XCTAssertTrue(check.stderr.contains("\(path):\(line + 1):6: keys.l: \"run long\" cannot be a hotkey: a key "
                                            + "acts at once, and `run` goes on until its script ends"), check.stderr)
        XCTAssertFalse(check.stderr.contains("keys.x"), check.stderr)
        for command in ["shell", "run"] {
            let refused = try ProcessRunner.run(BinaryLocator.pausecam.path, [
                command, path, "--clock", "simulated", "--output", directory.appendingPathComponent("out").path,
            ] + (command == "run" ? ["--script", "short"] : []), input: "record\nstop\n")
            XCTAssertEqual(refused.status, 2, "\(command): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("keys.w: \"wait 1h\" cannot be a hotkey"), refused.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path),
                           "\(command) recorded")
        }
    }

    func testABadKeyInTheRigIsAnErrorWithItsPosition() throws {
        let directory = try ProcessRunner.temporaryDirectory("hotkeys-check")
        var text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
        text += "keys:\n  x: lens bogus\n  q: stop\n  xy: stop\n"
        let path = directory.appendingPathComponent("keys.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let line = text.components(separatedBy: "\n").count - 3
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", path])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(path):\(line):6: keys.x: unknown lens \"bogus\""), result.stderr)
        XCTAssertTrue(result.stderr.contains("\(path):\(line + 1):3: keys: \"q\" leaves the keys mode"), result.stderr)
        XCTAssertTrue(result.stderr.contains("\(path):\(line + 2):3: keys: a key is one character"), result.stderr)
    }
}
