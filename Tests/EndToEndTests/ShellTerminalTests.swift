import Foundation
import XCTest

/// The shell on a real terminal: `pausecam shell` inside a detached tmux session of a fixed size, driven with
/// `send-keys` and read with `capture-pane`. Checks the live prompt, tab completion and history recall.
final class ShellTerminalTests: XCTestCase {
    struct Tmux {
        let socket = "pausecam-test-\(UUID().uuidString.prefix(8))"
        let binary: String

        @discardableResult
        func run(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.run(binary, ["-L", socket] + arguments)
        }

        /// Starts the session. tmux's server lives on and keeps every descriptor it inherited, so it is spawned
        /// with /dev/null as its standard streams and waited for with `waitpid` (Foundation's `Process` would wait
        /// for a descriptor the server never closes).
        func start(_ command: String) throws {
            let arguments = [binary, "-L", socket, "new-session", "-d", "-s", "shell", "-x", "100", "-y", "30", command]
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for fd: Int32 in 0...2 {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            var argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, binary, &actions, nil, &argv, environ)
            guard spawned == 0 else { throw NSError(domain: "posix_spawn", code: Int(spawned)) }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }

        func screen() -> String { (try? run(["capture-pane", "-p", "-t", "shell"]).stdoutText) ?? "" }

        /// The screen once `predicate` holds for it, or nil after `seconds`.
        func waitForScreen(seconds: Double = 15, _ predicate: (String) -> Bool) -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                let text = screen()
                if predicate(text) { return text }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }

        /// The last non-empty line of the screen: where the prompt and the typed text are.
        func promptLine() -> String {
            screen().components(separatedBy: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        }
    }

    /// `pausecam shell` on the end-to-end rig (real clock) in a real terminal, at its idle prompt; skipped loudly
    /// without tmux. Returns the terminal, the output folder and the state folder (history); the caller kills the
    /// tmux server when done. `environment` is extra `NAME=value` words for the shell's environment.
    func startShell(_ name: String, environment: String = "") throws -> (tmux: Tmux, directory: URL, state: URL) {
        guard let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else {
            throw XCTSkip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
        }
        let tmux = Tmux(binary: tmuxPath)
        let directory = try ProcessRunner.temporaryDirectory(name)
        let state = try ProcessRunner.temporaryDirectory(name + "-state")
        let command = "env XDG_STATE_HOME=\(state.path) \(environment) \(BinaryLocator.pausecam.path) shell "
            + "\(ProcessRunner.rig("e2e.yaml")) --clock real --output \(directory.path); echo PAUSECAM-EXIT $?; sleep 60"
        try tmux.start(command)
        XCTAssertNotNil(tmux.waitForScreen { $0.contains("idle main >") }, tmux.screen())
        return (tmux, directory, state)
    }

    func testPromptShowsLiveStatusTabCompletesAndUpRecallsHistory() throws {
        let (tmux, directory, state) = try startShell("tmux")
        defer { _ = try? tmux.run(["kill-server"]) }

        // The prompt shows the recording with a timer that moves.
        try tmux.run(["send-keys", "-t", "shell", "record", "Enter"])
        let recording = tmux.waitForScreen { $0.contains("● REC scene 1 00:00:0") }
        XCTAssertNotNil(recording, tmux.screen())
        let firstPrompt = tmux.promptLine()
        let later = tmux.waitForScreen(seconds: 5) { screen in
            let last = screen.components(separatedBy: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            return last != firstPrompt && (last ?? "").hasPrefix("● REC scene 1 ")
        }
        XCTAssertNotNil(later, "the timer in the prompt did not move: \(firstPrompt)")

        // Tab completes a zoom preset.
        try tmux.run(["send-keys", "-t", "shell", "zoom 2", "Tab"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { _ in
            tmux.promptLine().hasSuffix("main > zoom 2x")
        }, tmux.screen())
        try tmux.run(["send-keys", "-t", "shell", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { $0.contains("zoom 2x = main 1x × digital 2x") }, tmux.screen())
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { _ in
            tmux.promptLine().contains(" 2x = main 1x × digital 2x >")
        }, tmux.screen())

        // The up arrow recalls the last command.
        try tmux.run(["send-keys", "-t", "shell", "Up"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { _ in
            tmux.promptLine().hasSuffix(" 2x > zoom 2x")
        }, tmux.screen())
        try tmux.run(["send-keys", "-t", "shell", "C-u"])

        // quit stops and saves; the history file holds the commands.
        try tmux.run(["send-keys", "-t", "shell", "quit", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 20) { $0.contains("PAUSECAM-EXIT 0") }, tmux.screen())
        XCTAssertTrue(tmux.screen().contains("* saved "), tmux.screen())
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(names, ["e2e-rig.jpg", "e2e-rig.json", "e2e-rig.mov"])
        let history = try String(contentsOfFile: state.appendingPathComponent("pausecam/history").path, encoding: .utf8)
        XCTAssertTrue(history.contains("record"), history)
        XCTAssertTrue(history.contains("quit"), history)
    }

    /// During a real-clock `wait` the status line keeps ticking (before, the screen froze until the wait ended),
    /// and when the wait ends the line is cleared and the prompt comes back.
    func testTheStatusLineKeepsTickingDuringAWait() throws {
        let (tmux, _, _) = try startShell("tmux-wait")
        defer { _ = try? tmux.run(["kill-server"]) }
        try tmux.run(["send-keys", "-t", "shell", "record", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen { $0.contains("● REC scene 1") }, tmux.screen())
        try tmux.run(["send-keys", "-t", "shell", "wait 5s", "Enter"])
        let waiting = tmux.waitForScreen(seconds: 5) { _ in tmux.promptLine().contains("· waiting ") }
        XCTAssertNotNil(waiting, "no status line during the wait: \(tmux.screen())")
        let first = tmux.promptLine()
        let later = tmux.waitForScreen(seconds: 4) { _ in
            let line = tmux.promptLine()
            return line.contains("· waiting ") && line != first
        }
        XCTAssertNotNil(later, "the status line did not move during the wait: \(first)")
        XCTAssertTrue(first.hasPrefix("● REC scene 1 "), first)
        // The wait ends: its line is replaced by the reply, and the prompt is back.
        XCTAssertNotNil(tmux.waitForScreen(seconds: 20) { $0.contains("waited 00:00:05.0") }, tmux.screen())
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { _ in tmux.promptLine().hasPrefix("● REC scene 1 ") &&
            tmux.promptLine().hasSuffix("main >") }, tmux.screen())
        XCTAssertFalse(tmux.screen().components(separatedBy: "\n").contains { $0.contains("waited") && $0.contains("·") },
                       "the reply was printed into the status line: \(tmux.screen())")
        try tmux.run(["send-keys", "-t", "shell", "quit", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 20) { $0.contains("PAUSECAM-EXIT 0") }, tmux.screen())
    }

    /// The window title is a tally: `● REC 00:00:01` while recording, `‖ PAUSED …` while paused, emptied at exit.
    func testTheWindowTitleIsATallyWhileRecordingOrPausedAndClearedAtExit() throws {
        let (tmux, _, _) = try startShell("tmux-tally")
        defer { _ = try? tmux.run(["kill-server"]) }
        func title() -> String {
            ((try? tmux.run(["display", "-p", "-t", "shell", "#{pane_title}"]).stdoutText) ?? "")
                .trimmingCharacters(in: .newlines)
        }
        func waitForTitle(_ predicate: (String) -> Bool) -> String? {
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                let text = title()
                if predicate(text) { return text }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }
        let idle = title()
        XCTAssertFalse(idle.contains("REC") || idle.contains("PAUSED"), idle)
        try tmux.run(["send-keys", "-t", "shell", "record", "Enter"])
        // The timer moves in the title: 00:00:01 follows 00:00:00.
        XCTAssertNotNil(waitForTitle { $0 == "● REC 00:00:01" }, "title: \(title()); screen: \(tmux.screen())")
        try tmux.run(["send-keys", "-t", "shell", "pause", "Enter"])
        let paused = waitForTitle { $0.hasPrefix("‖ PAUSED 00:00:0") }
        XCTAssertNotNil(paused, "title: \(title())")
        try tmux.run(["send-keys", "-t", "shell", "quit", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 20) { $0.contains("PAUSECAM-EXIT 0") }, tmux.screen())
        XCTAssertEqual(title(), "", "the tally stayed after the shell ended")
    }

    func testAnEventIsPrintedAboveTheLineBeingTypedWithoutGarblingIt() throws {
        // Any free space counts as "almost full": the first disk check (2 s after record) raises an event.
        let (tmux, _, _) = try startShell("tmux-event", environment: "PAUSECAM_DISK_WARN_BYTES=9223372036854775807")
        defer { _ = try? tmux.run(["kill-server"]) }
        try tmux.run(["send-keys", "-t", "shell", "record", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen { $0.contains("● REC scene 1") }, tmux.screen())
        try tmux.run(["send-keys", "-t", "shell", "mark half typed"])
        let screen = tmux.waitForScreen(seconds: 10) { $0.contains("the disk is almost full") }
        XCTAssertNotNil(screen, tmux.screen())
        // The event stands on its own line above the prompt, and the typed text is still there, whole.
        let lines = tmux.screen().components(separatedBy: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let eventLine = try XCTUnwrap(lines.lastIndex { $0.contains("the disk is almost full") }, tmux.screen())
        XCTAssertFalse(lines[eventLine].contains("REC"), "the event was printed into the prompt: \(lines[eventLine])")
        XCTAssertTrue(lines.last?.hasSuffix("main > mark half typed") ?? false, tmux.screen())
        XCTAssertLessThan(eventLine, lines.count - 1)
        try tmux.run(["send-keys", "-t", "shell", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 5) { $0.contains("marked \"half typed\"") }, tmux.screen())
        try tmux.run(["send-keys", "-t", "shell", "quit", "Enter"])
        XCTAssertNotNil(tmux.waitForScreen(seconds: 20) { $0.contains("PAUSECAM-EXIT 0") }, tmux.screen())
    }
}
