import Foundation
import XCTest

/// `record --countdown N` and the rig's `countdown:`: the seconds are told one by one, the movie starts after them
/// (its duration, measured by ffprobe, leaves the countdown out), and `stop` during the countdown cancels it with
/// nothing recorded. On the simulated clock, so the seconds pass instantly.
final class CountdownEndToEndTests: XCTestCase {
    func shell(_ name: String, rig: String = ProcessRunner.rig("e2e.yaml"), input: String)
        throws -> (result: ProcessResult, output: URL) {
        let output = try ProcessRunner.temporaryDirectory(name)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rig, "--clock", "simulated", "--output", output.path],
                                           input: input)
        return (result, output)
    }

    func testTheMovieStartsAfterTheCountdown() throws {
        let (result, output) = try shell("countdown", input: "record --countdown 3 Intro\nwait 5s\nstop\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let lines = result.stdoutText.components(separatedBy: "\n")
        let told = ["* 3…", "* 2…", "* 1…"].map { line in lines.firstIndex(of: line) }
        XCTAssertFalse(told.contains(nil), "the seconds were not told one by one: \(result.stdoutText)")
        XCTAssertEqual(told.compactMap { $0 }, told.compactMap { $0 }.sorted(), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("* recording scene 1 \"Intro\""), result.stdoutText)
        let movie = output.appendingPathComponent("e2e-rig.mov").path
        // 5 s waited, of which 3 s were the countdown: a 2 s movie.
        XCTAssertEqual(try MediaProbe(path: movie).duration(), 2.0, accuracy: 0.05)
        XCTAssertEqual(try MediaProbe(path: movie).chapters().first?.tags?["title"], "Intro")
    }

    func testStopDuringTheCountdownCancelsItWithNothingRecorded() throws {
        let (result, output) = try shell("countdown-cancel", input: "record --countdown 3\nwait 1s\nstop\nwait 3s\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("countdown cancelled with 2 s left: nothing recorded"),
                      result.stdoutText)
        XCTAssertFalse(result.stdoutText.contains("* 1…"), "the countdown went on: \(result.stdoutText)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        XCTAssertEqual(names, [], "a cancelled countdown left files")
    }

    func testTheRigsCountdownAppliesToAPersonsRecordButNotToAScript() throws {
        let directory = try ProcessRunner.temporaryDirectory("countdown-rig")
        let rig = directory.appendingPathComponent("countdown.yaml")
        let text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8) + "countdown: 2\n"
        try text.write(to: rig, atomically: true, encoding: .utf8)
        let (typed, output) = try shell("countdown-rig-shell", rig: rig.path, input: "record\nwait 3s\nstop\n")
        XCTAssertEqual(typed.status, 0, typed.stdoutText + typed.stderr)
        XCTAssertEqual(try MediaProbe(path: output.appendingPathComponent("e2e-rig.mov").path).duration(), 1.0,
                       accuracy: 0.05)
        // --countdown 0 skips it.
        let (now, nowOutput) = try shell("countdown-rig-zero", rig: rig.path,
                                         input: "record --countdown 0\nwait 3s\nstop\n")
        XCTAssertEqual(now.status, 0, now.stdoutText + now.stderr)
        XCTAssertEqual(try MediaProbe(path: nowOutput.appendingPathComponent("e2e-rig.mov").path).duration(), 3.0,
                       accuracy: 0.05)
        // A script's timing is its own: `short` records 0.5 s.
        let scripted = directory.appendingPathComponent("scripted")
        let run = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", rig.path, "--script", "short", "--clock",
                                                                      "simulated", "--output", scripted.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try MediaProbe(path: scripted.appendingPathComponent("e2e-rig.mov").path).duration(), 0.5,
                       accuracy: 0.05)
    }

    func testACountdownOutOfRangeIsAnError() throws {
        let (result, _) = try shell("countdown-range", input: "record --countdown 99\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("--countdown needs whole seconds from 0 to 60"), result.stderr)
        let directory = try ProcessRunner.temporaryDirectory("countdown-rig-range")
        let rig = directory.appendingPathComponent("countdown.yaml")
        let text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8) + "countdown: 3s\n"
        try text.write(to: rig, atomically: true, encoding: .utf8)
        let lines = text.components(separatedBy: "\n").count - 1
        let check = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", rig.path])
        XCTAssertEqual(check.status, 2)
        XCTAssertTrue(check.stderr.contains("\(rig.path):\(lines):12: countdown: expected whole seconds from 0 to 60, "
                                            + "found \"3s\""), check.stderr)
    }

    /// On a terminal: the prompt shows the seconds, the terminal's bell rings (tmux's bell flag; never under
    /// `--quiet`), and Ctrl-C during a countdown cancels it with nothing recorded.
    func testOnATerminalThePromptCountsTheBellRingsAndCtrlCCancels() throws {
        guard let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else {
            throw XCTSkip("tmux is not installed: the real-terminal test needs it (apt-get install tmux)")
        }
        for quiet in [false, true] {
            let directory = try ProcessRunner.temporaryDirectory("countdown-tmux")
            let output = directory.appendingPathComponent("out")
            let tmux = ShellTerminalTests.Tmux(binary: tmuxPath)
            defer { _ = try? tmux.run(["kill-server"]) }
            try tmux.start("env XDG_STATE_HOME=\(directory.path) \(BinaryLocator.pausecam.path) shell "
                           + "\(ProcessRunner.rig("e2e.yaml")) --clock real --output \(output.path) "
                           + "--socket \(directory.path)/c.sock\(quiet ? " --quiet" : ""); sleep 60")
            func bell() -> String {
                ((try? tmux.run(["display", "-p", "-t", "shell", "#{window_bell_flag}"]).stdoutText) ?? "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            XCTAssertNotNil(tmux.waitForScreen { $0.contains("idle main >") }, tmux.screen())
            XCTAssertEqual(bell(), "0")
            // Ctrl-C during the countdown cancels it.
            try tmux.run(["send-keys", "-t", "shell", "record --countdown 30", "Enter"])
            XCTAssertNotNil(tmux.waitForScreen { _ in tmux.promptLine().hasPrefix("2") && tmux.promptLine().contains("… main >") },
                            tmux.screen())
            try tmux.run(["send-keys", "-t", "shell", "C-c"])
            if !quiet {
                XCTAssertNotNil(tmux.waitForScreen { $0.contains("countdown cancelled with ") && $0.contains("nothing recorded") },
                                tmux.screen())
            }
            XCTAssertNotNil(tmux.waitForScreen { _ in tmux.promptLine().hasPrefix("idle main >") }, tmux.screen())
            XCTAssertEqual(bell(), quiet ? "0" : "1", "the bell (quiet: \(quiet))")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("e2e-rig.mov.partial").path))
            // A short one ends in a recording.
            try tmux.run(["send-keys", "-t", "shell", "record --countdown 1", "Enter"])
            XCTAssertNotNil(tmux.waitForScreen { _ in tmux.promptLine().hasPrefix("● REC scene 1 ") }, tmux.screen())
            try tmux.run(["send-keys", "-t", "shell", "quit", "Enter"])
            XCTAssertNotNil(tmux.waitForScreen(seconds: 20) { $0.contains("* saved ") }, tmux.screen())
        }
    }
}
