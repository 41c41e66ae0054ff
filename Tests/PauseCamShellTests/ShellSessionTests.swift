import Foundation
import XCTest
import PauseCamCore
@testable import PauseCamShell

/// A line reader fed from a list, keeping standard output and standard error apart.
final class ScriptedLineReader: LineReader {
    var lines: [String]
    var output: [String] = []
    var errors: [String] = []
    var completer: (@Sendable (String) -> [String])?
    /// Called when the input runs out, before the end of input is reported (to deliver a signal, say).
    var atEnd: () -> Void = {}

    init(_ lines: [String]) { self.lines = lines }

    func readLine(prompt: String) -> String? {
        guard !lines.isEmpty else {
            atEnd()
            return nil
        }
        return lines.removeFirst()
    }
    func addHistory(_ line: String) {}
    func printAbove(_ text: String) { output.append(text) }
    func printError(_ text: String) { errors.append(text) }
}

/// A factory that cannot be reached: the rig below has no camera, so nothing ever records.
final class UnusedSinkFactory: MovieSinkFactory {
    struct Unused: Error {}
    func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink {
        throw Unused()
    }
}

final class UnusedSidecarStore: SidecarStore {
    func write(_ data: Data, to path: String) throws {}
}

/// How a shell session ends and what it says where: errors on standard error with the line that caused them, the
/// exit status 1 after any failure, `--on-error stop`, comments, and `exit`/`q`. The rig has no camera, so these
/// tests need no device (recording paths are covered end to end, through the binary).
final class ShellSessionTests: XCTestCase {
    func session(_ lines: [String], interactive: Bool = false, errorPolicy: ShellErrorPolicy = .continue)
        -> (shell: Shell, reader: ScriptedLineReader) {
        let rig = Rig(name: "Bare", lenses: [Rig.Lens(name: "main", source: .virtual(color: RGBColor(hex: "#20c040")!))])
        let serialContext = SimulatedSerialContext()
        let hub = DeviceHub(rig: rig, cameras: [:], microphone: nil, serialContext: serialContext, devices: InlineWorker(),
                            notify: { _ in })
        let clips = ClipController(rig: rig, sinkFactory: UnusedSinkFactory(), store: UnusedSidecarStore(),
                                   serialContext: serialContext, wallClock: { Date(timeIntervalSince1970: 0) },
                                   outputDirectory: "/nowhere", finishing: InlineWorker(), notify: { _ in })
        let controller = RigController(rig: rig, devices: hub, clips: clips, serialContext: serialContext, notify: { _ in })
        let reader = ScriptedLineReader(lines)
        let shell = Shell(controller: controller, runner: ScriptRunner(controller: controller, serialContext: serialContext),
                          serialContext: serialContext, reader: reader, interactive: interactive, color: false,
                          errorPolicy: errorPolicy,
                          surroundings: Shell.Surroundings(devices: { "" }, openMovie: { $0 }, interruptRead: {}))
        return (shell, reader)
    }

    func testACleanSessionExitsZeroWithNothingOnStandardError() {
        let (shell, reader) = session(["status", "help", "help exit", "q"])
        XCTAssertEqual(shell.run(), 0)
        XCTAssertEqual(reader.errors, [])
        XCTAssertTrue(reader.output.contains { $0.hasPrefix("quit (or exit, or q)") }, "\(reader.output)")
    }

    func testAFailedCommandGoesToStandardErrorWithItsLineAndTheSessionExitsOne() {
        let (shell, reader) = session(["# set-up", "", "   # indented comment", "status", "stop", "foo bar",
                                       "help bogus", "record", "exit", "status"])
        XCTAssertEqual(shell.run(), 1)
        XCTAssertEqual(reader.errors, [
            "error: line 5: stop: not recording; `record` first",
            "error: line 6: foo bar: unknown command \"foo\"; type \"help\" for the list",
            "error: line 7: help bogus: unknown command \"bogus\"; did you mean \"focus\"?",
            "error: line 8: record: lens main has no camera; choose another with `lens NAME`",
        ])
        XCTAssertFalse(reader.output.contains { $0.contains("error") || $0.contains("#") }, "\(reader.output)")
        XCTAssertEqual(reader.output.filter { $0.hasSuffix("> status") }.count, 1, "a line after exit was run")
    }

    func testOnErrorStopEndsTheSessionAtTheFirstFailure() {
        let (shell, reader) = session(["status", "lens nope", "status"], errorPolicy: .stop)
        XCTAssertEqual(shell.run(), 1)
        XCTAssertEqual(reader.errors, [
            "error: line 2: lens nope: unknown lens \"nope\" (known: main)",
            "--on-error stop: ending the session at the first failed command",
        ])
        XCTAssertEqual(reader.output.filter { $0.hasSuffix("> status") }.count, 1, "a line after the failure ran")
    }

    func testAnInteractiveSessionPrintsErrorsWithoutLineNumbers() {
        let (shell, reader) = session(["pause", "quit"], interactive: true)
        XCTAssertEqual(shell.run(), 1)
        XCTAssertEqual(reader.errors, ["error: not recording; `record` first"])
    }

    func testASignalsStatusWinsOverFailures() {
        let (shell, reader) = session(["foo"])
        reader.atEnd = { shell.receive(.terminate) }
        XCTAssertEqual(shell.run(), 143)
        XCTAssertEqual(reader.errors.count, 1)
    }
}
