import Foundation
import PauseCamCore
import XCTest

/// Commands piped into the built `pausecam shell` on the e2e rig with the simulated clock: the whole standard output
/// is compared with a stored, hand-checked transcript (the output folder printed as `<out>`), and the movie with
/// ffprobe. Transcript format: for every command, the prompt the shell showed and the command (`● REC scene 1
/// 00:00:02.0 main > pause`), then its result lines; engine events start with `* `. Failures go to standard error,
/// one line each (`error: line N: COMMAND: why`), compared with a second snapshot; any failure makes the exit
/// status 1.
final class ShellTranscriptTests: XCTestCase {
    static func snapshot(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Runs the shell on `input`; returns the exit status, stdout with the folder replaced by `<out>`, and the folder.
    /// `extra` arguments follow the usual ones; `output` replaces the fresh folder given to `--output`.
    static func shell(_ input: String, name: String, environment: [String: String]? = nil, extra: [String] = [],
                      output: String? = nil) throws
        -> (status: Int32, transcript: String, stderr: String, directory: URL) {
        let directory = try ProcessRunner.temporaryDirectory(name)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated",
                                            "--output", output ?? directory.path] + extra,
                                           input: input, environment: environment)
        return (result.status, result.stdoutText.replacingOccurrences(of: directory.path, with: "<out>"),
                result.stderr.replacingOccurrences(of: directory.path, with: "<out>"), directory)
    }

    /// Line-by-line comparison, so a failure names the first differing line.
    static func assertTranscript(_ actual: String, equals expected: String, file: StaticString = #filePath,
                                 line: UInt = #line) {
        let a = actual.components(separatedBy: "\n"), e = expected.components(separatedBy: "\n")
        for (index, (got, want)) in zip(a, e).enumerated() where got != want {
            XCTFail("line \(index + 1):\n  got:  \(got)\n  want: \(want)\nwhole output:\n\(actual)", file: file, line: line)
            return
        }
        XCTAssertEqual(a.count, e.count, "line count differs; whole output:\n\(actual)", file: file, line: line)
    }

    static func movie(in directory: URL) throws -> (probe: MediaProbe, sidecar: Sidecar) {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertFalse(names.contains { $0.hasSuffix(".partial") }, "a .partial was left behind: \(names)")
        XCTAssertEqual(names, ["e2e-rig.jpg", "e2e-rig.json", "e2e-rig.mov"])
        let sidecar = try Sidecar.decode(try Data(contentsOf: directory.appendingPathComponent("e2e-rig.json")))
        let probe = MediaProbe(path: directory.appendingPathComponent("e2e-rig.mov").path)
        try probe.assertConstantRate(30)
        return (probe, sidecar)
    }

    func testPauseResumeSessionFromTheIssueMatchesItsTranscriptAndMakesATwoSceneMovie() throws {
        let run = try Self.shell("record\nwait 2s\npause\nwait 1s\nresume\nwait 2s\nstop\nlast\nstatus\n", name: "shell-pr")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        Self.assertTranscript(run.transcript, equals: try Self.snapshot("shell-pause-resume.txt"))
        let (probe, sidecar) = try Self.movie(in: run.directory)
        XCTAssertEqual(try probe.chapters().compactMap(\.title), ["Scene 1", "Scene 2"])
        XCTAssertEqual(try probe.chapters().map(\.start)[1], 2.0, accuracy: 1.0 / 30)
        XCTAssertEqual(try probe.duration(), 4.0, accuracy: 0.07)
        XCTAssertEqual(sidecar.duration, 4.0, accuracy: 1e-3)
        XCTAssertTrue(sidecar.complete)
        XCTAssertEqual(try probe.decodeErrors(), "")
    }

    /// Every command's error path: wrong state, unknown lens, unknown preset, bad factor, bad duration, unknown
    /// command, unknown script, missing argument. Each message is on standard error with its line number, the
    /// transcript on standard output has none, the exit status is 1, and the recording goes on unharmed: the movie
    /// has both scenes and exactly the recorded 3 s. Comments and blank lines are skipped (and counted as lines).
    func testEveryErrorSaysWhyAndTheRecordingGoesOnUnharmed() throws {
        let input = ["record Intro", "wait 1s", "record", "resume", "lens fisheye", "zoom huge", "zoom 0",
                     "exposure bright", "focus near", "wait soon", "zom 2x", "run nosuch", "last", "mark rename", "run short",
                     "exposure +1", "focus auto", "help zoomm", "wait 1s",
                     "pause", "pause", "wait 500ms", "resume Two", "wait 1s", "stop", "stop", "pause", "resume",
                     "# comments and blank lines are skipped", "", "last"]
        let run = try Self.shell(input.joined(separator: "\n") + "\n", name: "shell-errors")
        XCTAssertEqual(run.status, 1, "a session with failed commands must not exit 0")
        Self.assertTranscript(run.transcript, equals: try Self.snapshot("shell-errors.txt"))
        Self.assertTranscript(run.stderr, equals: try Self.snapshot("shell-errors.stderr.txt"))
        let (probe, sidecar) = try Self.movie(in: run.directory)
        XCTAssertEqual(sidecar.warnings, [
            "exposure +1: lens main (Virtual main (#20c040)) has no exposure control; nothing changed",
            "focus auto: lens main (Virtual main (#20c040)) has no focus control; nothing changed",
        ])
        XCTAssertEqual(try probe.chapters().compactMap(\.title), ["Intro", "Two"])
        XCTAssertEqual(try probe.duration(), 3.0, accuracy: 0.07)
        XCTAssertEqual(sidecar.duration, 3.0, accuracy: 1e-3)
        XCTAssertEqual(sidecar.scenes.map(\.duration).reduce(0, +), 3.0, accuracy: 1e-3)
        XCTAssertEqual(try probe.decodeErrors(), "")
    }

    func testEndOfInputWhileRecordingStopsAndSavesTheClip() throws {
        let run = try Self.shell("record Only\nlens tele\nwait 1500ms\nmark end soon\n", name: "shell-eof")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        Self.assertTranscript(run.transcript, equals: try Self.snapshot("shell-end-of-input.txt"))
        let (probe, sidecar) = try Self.movie(in: run.directory)
        XCTAssertEqual(try probe.duration(), 1.5, accuracy: 0.07)
        XCTAssertTrue(sidecar.complete)
        XCTAssertEqual(try probe.chapters().compactMap(\.title), ["Only"])
    }

    /// `quit`, `exit` and `q` all stop, save and leave; what follows them is not read.
    func testQuitWhileRecordingStopsAndSavesAndIgnoresTheRest() throws {
        for word in ["quit", "exit", "q"] {
            let run = try Self.shell("record\nwait 1s\n\(word)\nrecord\n", name: "shell-\(word)")
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.transcript.hasSuffix("""
                ● REC scene 1 00:00:01.0 main > \(word)
                stopping and saving the clip before quitting
                * saved <out>/e2e-rig.mov — 1 scene(s), 00:00:01.0, 0 dropped frame(s)

                """), run.transcript)
            let (probe, _) = try Self.movie(in: run.directory)
            XCTAssertEqual(try probe.duration(), 1.0, accuracy: 0.07)
        }
    }

    func testRunScriptFromTheShellPrintsEachStepAndSavesItsClip() throws {
        let run = try Self.shell("run short\nlast\n", name: "shell-run")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.transcript, """
            idle main > run short
            running script "short" (00:00:00.5 scripted)
              record: recording scene 1 to <out>/e2e-rig.mov
              stop: stopping…
            * saved <out>/e2e-rig.mov — 1 scene(s), 00:00:00.5, 0 dropped frame(s)
            idle main > last
            <out>/e2e-rig.mov
              duration 0.500 s · 1 scene(s) · 0 dropped frame(s)
              thumbnail <out>/e2e-rig.jpg

            """)
        _ = try Self.movie(in: run.directory)
    }

    func testHelpListsEveryCommandOnOneLineAndLastPlayWithoutAPlayerSaysSo() throws {
        let run = try Self.shell("help\nhelp wait\nrecord\nwait 200ms\nstop\nlast play\n", name: "shell-help",
                                 environment: ["PATH": "/nonexistent"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.transcript.components(separatedBy: "\n")
        for word in Command.words {
            XCTAssertEqual(lines.filter { $0.hasPrefix("  \(word)") }.count, 1, "help line for \(word)")
        }
        XCTAssertTrue(run.transcript.contains("wait DURATION\n  Lets time pass"), run.transcript)
        XCTAssertTrue(run.transcript.contains(
            "no desktop player here (xdg-open is not installed); the movie is <out>/e2e-rig.mov"), run.transcript)
    }
}
