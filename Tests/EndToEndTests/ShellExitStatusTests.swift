import Foundation
import PauseCamCore
import XCTest

/// A piped `pausecam shell` tells its caller (cron, systemd, CI) what happened: results on standard output, errors
/// on standard error, status 1 when any command or clip failed; `--on-error stop` ends the session at the first
/// failure with the clip saved; a clip without a frame is not kept; zoom says what it really does.
final class ShellExitStatusTests: XCTestCase {
    typealias Transcript = ShellTranscriptTests

    func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// A piped session of commands that fail (two that do not fit the state, one unknown) and a clip: status 1,
    /// each error on standard error with its line, none in the transcript on standard output, the clip saved.
    func testThePipedSessionOfTheIssueExitsOneWithItsErrorsOnStandardError() throws {
        let run = try Transcript.shell("stop\npause\nfoo bar\nrecord\nwait 500ms\nstop\n", name: "issue15")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertFalse(run.transcript.contains("error"), run.transcript)
        XCTAssertEqual(run.stderr, """
            error: line 1: stop: not recording; `record` first
            error: line 2: pause: not recording; `record` first
            error: line 3: foo bar: unknown command "foo"; type "help" for the list

            """)
        XCTAssertEqual(try files(in: run.directory), ["e2e-rig.jpg", "e2e-rig.json", "e2e-rig.mov"])
    }

    func testASessionWhoseRecordingCannotStartExitsNonZero() throws {
        let blocker = try ProcessRunner.temporaryDirectory("blocked").appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)
        let run = try Transcript.shell("record\nwait 1s\nstop\n", name: "cannot-start",
                                       output: blocker.appendingPathComponent("clips").path)
        XCTAssertNotEqual(run.status, 0, "recording never started, yet the session succeeded: \(run.transcript)")
        XCTAssertTrue(run.stderr.contains(blocker.path), run.stderr)
    }

    func testOnErrorStopEndsAtTheFirstFailureAndSavesTheClip() throws {
        let run = try Transcript.shell("record\nwait 1s\nzoom huge\nwait 1s\nstop\n", name: "on-error-stop",
                                       extra: ["--on-error=stop"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, """
            error: line 3: zoom huge: unknown zoom preset "huge" (known: 1x, 2x)
            --on-error stop: ending the session at the first failed command

            """)
        XCTAssertTrue(run.transcript.hasSuffix("""
            ● REC scene 1 00:00:01.0 main > zoom huge
            stopping and saving the clip
            * saved <out>/e2e-rig.mov — 1 scene(s), 00:00:01.0, 0 dropped frame(s)

            """), run.transcript)
        let (probe, sidecar) = try Transcript.movie(in: run.directory)
        XCTAssertEqual(try probe.duration(), 1.0, accuracy: 0.07)
        XCTAssertTrue(sidecar.complete)
    }

    func testAnUnknownOnErrorValueIsAUsageError() throws {
        let run = try Transcript.shell("status\n", name: "on-error-bad", extra: ["--on-error=maybe"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("--on-error is continue or stop, not \"maybe\""), run.stderr)
    }

    /// `record` then `stop` with no frame between: before, a 185-byte `.mov` with no streams was "saved".
    func testAClipWithoutAFrameLeavesNoFileAndTheSessionExitsOne() throws {
        let run = try Transcript.shell("record\nstop\nlast\n", name: "empty-clip")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(try files(in: run.directory), [], "an empty clip left files behind")
        XCTAssertEqual(run.transcript, """
            idle main > record
            recording scene 1 to <out>/e2e-rig.mov
            ● REC scene 1 00:00:00.0 main > stop
            stopping…
            * nothing was recorded: no video frame arrived between record and stop, so no movie was kept
            idle main > last
            no clip saved yet in this session; record one first

            """)
        XCTAssertEqual(run.stderr, "error: line 2: stop: nothing was recorded: no video frame arrived between record "
                       + "and stop, so no movie was kept\n")
    }

    /// The e2e rig's lenses are wide 0.5x, main 1x and tele 3x; digital zoom is limited to 4x (the default).
    func testZoomSaysWhichLensItUsesAndRefusesBeyondTheDigitalLimit() throws {
        let run = try Transcript.shell("zoom 0.2\nzoom 20\nzoom 6\nrecord\nwait 500ms\nstop\n", name: "zoom")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr, "error: line 2: zoom 20: zoom 20x is beyond this rig: digital zoom is limited to "
                       + "4x (max_digital_zoom), so with tele (3x) the most is 12x\n")
        XCTAssertTrue(run.transcript.hasPrefix("""
            idle main > zoom 0.2
            no lens as wide as 0.2x; using wide (0.5x)
            idle wide > zoom 20
            idle wide > zoom 6
            zoom 6x = tele 3x × digital 2x
            idle 6x = tele 3x × digital 2x > record
            """), run.transcript)
        let (_, sidecar) = try Transcript.movie(in: run.directory)
        XCTAssertEqual(sidecar.scenes.first?.lenses.map(\.lens), ["tele"])
    }
}
