import Foundation
import PauseCamCore
import XCTest

/// `pausecam run` fails like a good Unix tool: it stops at the first failed step, says which, saves the clip and
/// exits with a status a caller can act on (0, 1, 2, 128+N).
final class RunExitCodesEndToEndTests: XCTestCase {
    /// A one-lens rig whose script waits, records, then waits 30 s: a failing `record` must not take 30 s. The first
    /// wait is the test's window to take the output folder away (after the start's folder check, before `record`):
    /// 8 s, so a test process descheduled on a loaded machine still acts in it.
    static let lateRecordRig = """
        name: Exit rig
        output:
          name: "{rig}"
          size: 160x90
          fps: 30
          video: {codec: h264, preset: ultrafast, crf: 30, keyframe_interval: 2s}
        audio:
          device: virtual
        lenses:
          main:
            zoom: 1
            virtual: {color: "#20c040"}
            size: 160x90
            fps: 30
        scripts:
          late:
            - wait: 8s
            - record: Intro
            - wait: 30s
            - stop

        """

    private func writeRig(_ text: String) throws -> String {
        let folder = try ProcessRunner.temporaryDirectory("rig")
        let path = folder.appendingPathComponent("exit.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs the late-record script and replaces its output folder with a file during the first wait, so the
    /// folder check at the start passes and the `record` step fails.
    private func runWithFailingRecord() throws -> (status: Int32?, seconds: Double, run: RunningCommand, rig: String) {
        let rig = try writeRig(Self.lateRecordRig)
        let output = try ProcessRunner.temporaryDirectory("vanishing")
        let run = try RunningCommand(["run", rig, "--script", "late", "--output", output.path])
        XCTAssertTrue(run.waitFor("running script"), run.stdout + run.stderr)
        try FileManager.default.removeItem(at: output)
        try Data().write(to: output)
        let status = run.waitForExit(seconds: 60)
        return (status, Date().timeIntervalSince(run.started), run, rig)
    }

    func testAFailedStepEndsTheScriptAtOnceWithStatus1() throws {
        let (status, seconds, run, _) = try runWithFailingRecord()
        XCTAssertEqual(status, 1, run.stdout + run.stderr)
        // The script is 38 s long; the failure at 8 s ends it (generous margin for a loaded machine).
        XCTAssertLessThan(seconds, 25, run.stdout + run.stderr)
        // `FILE:LINE: step "record Intro" failed`, or `step 2 "record Intro" failed` while the rig decoder does not
        // fill the steps' positions.
        XCTAssertNotNil(run.stderr.range(of: #"step (2 )?"record Intro" failed: cannot start recording"#,
                                         options: .regularExpression), run.stderr)
        XCTAssertFalse(run.stdout.contains("stop:"), "a step after the failure ran:\n\(run.stdout)")
    }

    func testTheFailedStepIsNamedByFileAndLine() throws {
        let (_, _, run, rig) = try runWithFailingRecord()
        if run.stderr.contains("step 2 \"record Intro\" failed") {
            throw XCTSkip("the rig decoder does not fill Script.stepMarks yet (the rigfiles branch does)")
        }
        // `- record: Intro` is line 18 of the rig above.
        XCTAssertTrue(run.stderr.contains("\(rig):18: step \"record Intro\" failed"), run.stderr)
    }

    func testKeepGoingRunsTheRestAndStillExits1() throws {
        let rig = try writeRig(Self.lateRecordRig.replacingOccurrences(of: "wait: 30s", with: "wait: 1s"))
        let output = try ProcessRunner.temporaryDirectory("keep-going")
        let run = try RunningCommand(["run", rig, "--script", "late", "--output", output.path, "--keep-going"])
        XCTAssertTrue(run.waitFor("running script"), run.stderr)
        try FileManager.default.removeItem(at: output)
        try Data().write(to: output)
        XCTAssertEqual(run.waitForExit(), 1, run.stdout + run.stderr)
        // The steps after the failure ran (and `stop` failed too: nothing was recording).
        XCTAssertTrue(run.stdout.contains("stop: error: "), run.stdout)
        XCTAssertTrue(run.stderr.contains("2 step(s) failed"), run.stderr)
    }

    func testAnOutputFolderThatCannotBeCreatedIsSaidBeforeAnythingRecords() throws {
        let rig = try writeRig(Self.lateRecordRig)
        let file = try ProcessRunner.temporaryDirectory("file").appendingPathComponent("plain-file")
        try Data().write(to: file)
        let cases = [("/proc/pausecam", "cannot create the output folder /proc/pausecam: No such file or directory"),
                     (file.path, "the output folder \(file.path) is a file, not a folder"),
                     (file.path + "/clips", "cannot create the output folder \(file.path)/clips: \(file.path) is a file")]
        for (output, message) in cases {
            let started = Date()
            let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", rig, "--output", output])
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertLessThan(Date().timeIntervalSince(started), 20)
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
            XCTAssertTrue(result.stderr.contains("--output"), result.stderr)
            XCTAssertFalse(result.stderr.contains("NSCocoaErrorDomain"), result.stderr)
            XCTAssertFalse(result.stdoutText.contains("record"), "it recorded:\n\(result.stdoutText)")
        }
    }

    /// A relative output folder that does not exist yet is created, however short its components (`a/b`, `o`: the
    /// walk up to the nearest existing folder meets one-character paths, on which Foundation's `NSString` path maths
    /// traps). The same walk serves `check`, `doctor` and `shell`. Run in a fresh current folder (`env -C`).
    func testARelativeOutputFolderThatDoesNotExistYetIsCreated() throws {
        let folder = try ProcessRunner.temporaryDirectory("relative-output")
        func pausecam(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
            try ProcessRunner.run("/usr/bin/env", ["-C", folder.path, BinaryLocator.pausecam.path] + arguments,
                                  input: input)
        }
        for output in ["a/b", "o", "o2/", "x/y/z"] {
            let result = try pausecam(["run", ProcessRunner.rig("e2e.yaml"), "--script", "short", "--clock",
                                       "simulated", "--output", output])
            XCTAssertEqual(result.status, 0, "--output \(output): \(result.stderr)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path + "/\(output)/e2e-rig.mov"), output)
        }
        let shell = try pausecam(["shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", "s"],
                                 input: "record\nwait 0.5s\nstop\n")
        XCTAssertEqual(shell.status, 0, shell.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path + "/s/e2e-rig.mov"), shell.stdoutText)

        let rig = folder.appendingPathComponent("relative.yaml")
        try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "\noutput:\n", with: "\noutput:\n  directory: q/r\n")
            .write(to: rig, atomically: true, encoding: .utf8)
        let check = try pausecam(["check", rig.path])
        XCTAssertEqual(check.status, 0, check.stderr)
        let doctor = try pausecam(["doctor", rig.path])
        XCTAssertTrue([0, 1].contains(doctor.status), "doctor exited \(doctor.status): \(doctor.stderr)")
        XCTAssertTrue(doctor.stdoutText.contains("output folder q/r does not exist yet"), doctor.stdoutText)
    }

    func testSignalsGive128PlusTheirNumberAndAFinishedMovie() throws {
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, 129), (SIGINT, 130)] {
            let output = try ProcessRunner.temporaryDirectory("signal-\(signal)")
            let run = try RunningCommand(["run", ProcessRunner.rig("e2e.yaml"), "--script", "long",
                                          "--output", output.path])
            XCTAssertTrue(run.waitFor("] record"), run.stdout + run.stderr)
            let partial = output.appendingPathComponent("e2e-rig.mov.partial").path
            XCTAssertGreaterThanOrEqual(MediaProbe.waitUntilHeld([partial], seconds: 1)[0], 1, run.stdout + run.stderr)
            kill(run.process.processIdentifier, signal)
            XCTAssertEqual(run.waitForExit(seconds: 60), status, "signal \(signal):\n" + run.stdout + run.stderr)
            let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
            XCTAssertEqual(names, ["e2e-rig.jpg", "e2e-rig.json", "e2e-rig.mov"], run.stdout + run.stderr)
            let probe = MediaProbe(path: output.appendingPathComponent("e2e-rig.mov").path)
            try probe.assertConstantRate(30)
            XCTAssertGreaterThan(try probe.duration(), 0.5)
            let sidecar = try Sidecar.decode(try Data(contentsOf: output.appendingPathComponent("e2e-rig.json")))
            XCTAssertTrue(sidecar.complete)
        }
    }

    func testTheSimulatedClocksSidecarHasTheRealStartAndStop() throws {
        let output = try ProcessRunner.temporaryDirectory("sidecar-times")
        let before = Date()
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", ProcessRunner.rig("e2e.yaml"),
                                           "--script", "long", "--clock", "simulated", "--output", output.path])
        let after = Date()
        XCTAssertEqual(result.status, 0, result.stderr)
        let sidecar = try Sidecar.decode(try Data(contentsOf: output.appendingPathComponent("e2e-rig.json")))
        let format = ISO8601DateFormatter()
        let started = try XCTUnwrap(format.date(from: sidecar.started))
        let stopped = try XCTUnwrap(sidecar.stopped.flatMap { format.date(from: $0) })
        // The script is 62.3 s of simulated time; the sidecar says when the run really began and ended
        // (ISO 8601 keeps whole seconds).
        XCTAssertGreaterThanOrEqual(started, before.addingTimeInterval(-1))
        XCTAssertLessThanOrEqual(stopped, after.addingTimeInterval(1))
        XCTAssertLessThanOrEqual(started, stopped)
    }

    func testQuietPrintsOnlyThePaths() throws {
        let output = try ProcessRunner.temporaryDirectory("quiet")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", ProcessRunner.rig("e2e.yaml"),
                                           "--script", "short", "--clock", "simulated", "--output", output.path,
                                           "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutText, "movie:   \(output.path)/e2e-rig.mov\nsidecar: \(output.path)/e2e-rig.json\n")
        XCTAssertEqual(result.stderr, "")
    }

    func testTheLogLabelsScriptTimeAndMovieTime() throws {
        let output = try ProcessRunner.temporaryDirectory("labels")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["run", ProcessRunner.rig("e2e.yaml"),
                                           "--script", "pauses", "--clock", "simulated", "--output", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdoutText.components(separatedBy: "\n")
        XCTAssertTrue(lines.contains("[script 00:00:00.0 movie 00:00:00.0] record One: recording scene 1 \"One\" "
                                     + "to \(output.path)/e2e-rig.mov"), result.stdoutText)
        // After the first pause the two times part: 2.11 s of script, 1.50 s of movie.
        XCTAssertTrue(lines.contains { $0.hasPrefix("[script 00:00:02.1 movie 00:00:01.5] resume Two:") },
                      result.stdoutText)
    }

    func testHelpDocumentsExitStatusesAndTheNewOptions() throws {
        let binary = BinaryLocator.pausecam.path
        let main = try ProcessRunner.run(binary, ["--help"]).stdoutText
        for needle in ["--version", "EXIT STATUS", "130 SIGINT", "143 SIGTERM", "129 SIGHUP"] {
            XCTAssertTrue(main.contains(needle), "main help lacks \(needle)")
        }
        let run = try ProcessRunner.run(binary, ["help", "run"]).stdoutText
        for needle in ["--keep-going", "--quiet", "on_error: continue", "EXIT STATUS"] {
            XCTAssertTrue(run.contains(needle), "run help lacks \(needle)")
        }
        let shell = try ProcessRunner.run(binary, ["help", "shell"]).stdoutText
        for needle in ["--on-error stop", "--quiet", "`#`", "`exit`, `q`", "EXIT STATUS"] {
            XCTAssertTrue(shell.contains(needle), "shell help lacks \(needle)")
        }
    }

    func testAMisspeltOptionGetsDidYouMean() throws {
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["run", ProcessRunner.rig("e2e.yaml"), "--scirpt", "short"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown option --scirpt; did you mean --script?"), result.stderr)
    }
}
