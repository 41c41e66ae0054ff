import Foundation
import PauseCamCore
import XCTest

/// Signals sent to a recording `pausecam shell` (real clock, commands from a pipe that stays open): each must leave
/// a finalized, playable movie, a complete sidecar and no `.partial`, and end the shell with 128 + the signal's
/// number (SIGINT 130, SIGTERM 143, SIGHUP 129) wherever it arrives: at the prompt, during a `wait`, or while the
/// clip is being saved at the end of input.
final class ShellSignalTests: XCTestCase {
    /// A running shell whose standard output is collected as it comes.
    final class RunningShell: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        private let output = PipeCollector()
        private let errors = PipeCollector()
        let directory: URL

        init(name: String, rig: String = "e2e.yaml", environment: [String: String] = [:]) throws {
            directory = try ProcessRunner.temporaryDirectory(name)
            process.executableURL = BinaryLocator.pausecam
            process.arguments = ["shell", ProcessRunner.rig(rig), "--clock", "real", "--output", directory.path]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = input
            process.standardOutput = output.pipe
            process.standardError = errors.pipe
            try process.run()
        }

        var text: String { output.text }
        var errorText: String { errors.text }

        func send(_ line: String) { input.fileHandleForWriting.write((line + "\n").data(using: .utf8)!) }

        /// Waits (at most `seconds`) until the output contains `needle`.
        func waitFor(_ needle: String, seconds: Double = 20) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if text.contains(needle) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }

        /// Sends `wait 60s` and returns once the shell has taken it up. The piped shell echoes a command after its
        /// prompt when it has read it, and goes straight on into the wait; the echo, not a guessed sleep, is what
        /// says the command is no longer at the prompt (a Ctrl-C there would ask "press Ctrl-C again" instead).
        /// The short sleep after it covers only the few statements from the echo to the wait.
        func startWait() {
            send("wait 60s")
            XCTAssertTrue(waitFor("> wait 60s\n"), text)
            Thread.sleep(forTimeInterval: 0.3)
        }

        func waitForExit(seconds: Double = 30) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            guard !process.isRunning else { return false }
            // Its last lines may still be in the pipes: collect them to the pipes' ends.
            _ = output.waitForEnd()
            _ = errors.waitForEnd()
            return true
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Starts recording, waits until the `.partial` plays a second, and returns the shell.
    func recordingShell(_ name: String, rig: String = "e2e.yaml", base: String = "e2e-rig",
                        environment: [String: String] = [:]) throws -> RunningShell {
        let shell = try RunningShell(name: name, rig: rig, environment: environment)
        shell.send("record Take")
        XCTAssertTrue(shell.waitFor("recording scene 1"), shell.text)
        let partial = shell.directory.appendingPathComponent("\(base).mov.partial").path
        let held = MediaProbe.waitUntilHeld([partial], seconds: 1.0)[0]
        XCTAssertGreaterThanOrEqual(held, 1.0, "the .partial did not grow:\n\(shell.text)")
        return shell
    }

    /// The movie is finished and plays; the sidecar is complete; nothing partial is left.
    func assertSaved(_ shell: RunningShell, as base: String = "e2e-rig", file: StaticString = #filePath,
                     line: UInt = #line) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: shell.directory.path).sorted()
        XCTAssertEqual(names, ["\(base).jpg", "\(base).json", "\(base).mov"], shell.text, file: file, line: line)
        let probe = MediaProbe(path: shell.directory.appendingPathComponent("\(base).mov").path)
        try probe.assertConstantRate(30)
        XCTAssertGreaterThanOrEqual(try probe.duration(), 0.8, file: file, line: line)
        XCTAssertEqual(try probe.decodeErrors(), "", file: file, line: line)
        XCTAssertEqual(try probe.chapters().compactMap(\.title), ["Take"], file: file, line: line)
        let sidecar = try Sidecar.decode(try Data(contentsOf: shell.directory.appendingPathComponent("\(base).json")))
        XCTAssertTrue(sidecar.complete, file: file, line: line)
        XCTAssertEqual(sidecar.duration, try probe.duration(), accuracy: 0.07, file: file, line: line)
    }

    func testCtrlCAsksOnceThenTheSecondStopsAndSaves() throws {
        let shell = try recordingShell("sigint")
        kill(shell.process.processIdentifier, SIGINT)
        XCTAssertTrue(shell.waitFor("press Ctrl-C again"), shell.text)
        // Still recording after it: the movie goes on growing. (Typing a command here would cancel the question.)
        let partial = MediaProbe(path: shell.directory.appendingPathComponent("e2e-rig.mov.partial").path)
        let asked = partial.heldSeconds()
        XCTAssertGreaterThanOrEqual(MediaProbe.waitUntilHeld([partial.path], seconds: asked + 1)[0], asked + 1,
                                    "the first Ctrl-C ended the recording:\n\(shell.text)")
        XCTAssertTrue(shell.process.isRunning, "the first Ctrl-C ended the shell")
        kill(shell.process.processIdentifier, SIGINT)
        XCTAssertTrue(shell.waitForExit(), shell.text)
        XCTAssertEqual(shell.process.terminationStatus, 130)
        XCTAssertTrue(shell.text.contains("* saved "), shell.text)
        try assertSaved(shell)
    }

    func testSIGTERMStopsAndSavesAtOnce() throws {
        let shell = try recordingShell("sigterm")
        kill(shell.process.processIdentifier, SIGTERM)
        XCTAssertTrue(shell.waitForExit(), shell.text)
        XCTAssertEqual(shell.process.terminationStatus, 143)
        XCTAssertTrue(shell.text.contains("SIGTERM: stopping and saving the clip"), shell.text)
        try assertSaved(shell)
    }

    func testSIGHUPStopsAndSaves() throws {
        let shell = try recordingShell("sighup")
        kill(shell.process.processIdentifier, SIGHUP)
        XCTAssertTrue(shell.waitForExit(), shell.text)
        XCTAssertEqual(shell.process.terminationStatus, 129)
        try assertSaved(shell)
    }

    /// Ctrl-C during `wait` ends the wait, not the recording; the clip is then stopped normally. The user asked
    /// for the interruption, so it is not a failed command: the session still exits 0.
    func testCtrlCDuringWaitInterruptsOnlyTheWait() throws {
        let shell = try recordingShell("sigint-wait")
        shell.startWait()
        kill(shell.process.processIdentifier, SIGINT)
        XCTAssertTrue(shell.waitFor("interrupted; the recording goes on"), shell.text)
        XCTAssertTrue(shell.text.contains("\nwait interrupted\n"), shell.text)
        shell.send("stop")
        XCTAssertTrue(shell.waitFor("* saved "), shell.text)
        try shell.input.fileHandleForWriting.close()
        XCTAssertTrue(shell.waitForExit(), shell.text)
        XCTAssertEqual(shell.process.terminationStatus, 0, shell.errorText)
        XCTAssertEqual(shell.errorText, "")
        try assertSaved(shell)
    }

    /// SIGTERM and SIGHUP during a `wait` end it, and the shell, with their own statuses and the clip saved.
    func testSIGTERMAndSIGHUPDuringAWaitStopAndSaveWithTheirStatus() throws {
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))] {
            let shell = try recordingShell("wait-\(signal)")
            shell.startWait()
            kill(shell.process.processIdentifier, signal)
            XCTAssertTrue(shell.waitForExit(), shell.text)
            XCTAssertEqual(shell.process.terminationStatus, status, shell.text)
            try assertSaved(shell)
        }
    }

    /// A signal that arrives while the clip is being saved at the end of input still gives the signal's status
    /// (before, the session ended 0 as if nothing had happened). The slow encoder makes the save take a while.
    func testASignalWhileTheLastClipIsSavedGivesItsStatus() throws {
        let shell = try recordingShell("sigterm-saving", rig: "slow-encoder.yaml", base: "slow-encoder-rig",
                                       environment: ["PAUSECAM_FAULT_SLOW_ENCODER_MS": "100"])
        try shell.input.fileHandleForWriting.close()
        XCTAssertTrue(shell.waitFor("end of input: stopping and saving the clip"), shell.text)
        kill(shell.process.processIdentifier, SIGTERM)
        XCTAssertTrue(shell.waitForExit(), shell.text)
        XCTAssertTrue(shell.text.contains("* saved "), shell.text)
        XCTAssertEqual(shell.process.terminationStatus, 143, shell.text)
        try assertSaved(shell, as: "slow-encoder-rig")
    }

    func testSIGTERMAtAnIdlePromptQuitsWith143AndLeavesNoFile() throws {
        let shell = try RunningShell(name: "sigterm-idle")
        shell.send("status")
        XCTAssertTrue(shell.waitFor("state idle"), shell.text)
        kill(shell.process.processIdentifier, SIGTERM)
        XCTAssertTrue(shell.waitForExit(), shell.text)
        XCTAssertEqual(shell.process.terminationStatus, 143)
        XCTAssertTrue(shell.text.contains("SIGTERM: quitting"), shell.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shell.directory.path), [])
    }
}
