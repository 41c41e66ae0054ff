import Foundation
import XCTest

/// What a rig says that will not happen, through the built binary: an `exposure` or `focus` step on a lens without
/// that control, and an output folder that cannot take movies. `check` warns at the line and column
/// (`FILE:LINE:COLUMN: warning: …`, exit status 0); `run` and `shell` print the same warnings before they start,
/// and refuse a rig whose own output folder cannot be used (exit status 2) before they open anything.
final class RigWarningsEndToEndTests: XCTestCase {
    func pausecam(_ arguments: [String], input: String? = nil, folder: URL) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments, input: input,
                              environment: ["XDG_RUNTIME_DIR": folder.path])
    }

    /// A camera lens (`desk`, never connected here) and a virtual one (`main`, the default lens); `output` is a
    /// line under `output:`, `steps` the script's steps.
    static func rig(output: String = "", steps: [String]) -> String {
        """
        name: warnings
        output:
          size: 160x90
          fps: 15
          video: {preset: ultrafast}
        \(output.isEmpty ? "" : "  " + output + "\n")audio: {device: none}
        lenses:
          main:
            zoom: 1
            virtual: {color: "#20c040"}
          desk:
            zoom: 2
            match: {serial: NOT-CONNECTED}
        default_lens: main
        zoom_presets:
          close: {lens: desk}
        exposure_presets:
          bright: {bias: +1.0}
        scripts:
          take:

        """ + steps.map { "    - \($0)\n" }.joined()
    }

    /// `rig(output:steps:)` without the camera lens, for runs on the simulated clock.
    static func virtualRig(output: String = "", steps: [String]) -> String {
        rig(output: output, steps: steps)
            .replacingOccurrences(of: "  desk:\n    zoom: 2\n    match: {serial: NOT-CONNECTED}\n", with: "")
            .replacingOccurrences(of: "zoom_presets:\n  close: {lens: desk}\n", with: "")
    }

    static func write(_ text: String, to folder: URL) throws -> String {
        let path = folder.appendingPathComponent("rig.yaml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testCheckWarnsAtTheStepThatSetsAControlOnALensWithoutOne() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-warnings-exposure")
        // Steps start at line 21: the exposure on main (virtual) and the focus after `lens main` are warned; the
        // exposure after `zoom close` (the camera lens) and after `lens next` (depends on the cameras) are not.
        let rig = try Self.write(Self.rig(steps: ["record", "exposure: bright", "zoom: close", "exposure: +0.5",
                                                  "lens: main", "focus: auto", "lens: next", "exposure: auto",
                                                  "stop"]), to: folder)
        let result = try pausecam(["check", rig], folder: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("\"warnings\" is valid"), result.stdoutText)
        let warnings = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(warnings, [
            "\(rig):22:7: warning: scripts.take step 2: \"exposure bright\" runs on lens \"main\", a virtual lens "
                + "(a test pattern), which has no exposure control: the step changes nothing (a run notes it in "
                + "the clip's sidecar); switch to a camera lens first, or remove the step",
            "\(rig):26:7: warning: scripts.take step 6: \"focus auto\" runs on lens \"main\", a virtual lens "
                + "(a test pattern), which has no focus control: the step changes nothing (a run notes it in "
                + "the clip's sidecar); switch to a camera lens first, or remove the step",
        ], result.stderr)
    }

    func testRunAndShellPrintTheWarningsBeforeTheyStart() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-warnings-run")
        let rig = try Self.write(Self.virtualRig(steps: ["record", "exposure: +1", "wait: 200ms", "stop"]), to: folder)
        let warning = "\(rig):17:7: warning: scripts.take step 2: \"exposure +1\" runs on lens \"main\""
        let run = try pausecam(["run", rig, "--clock", "simulated", "--output", folder.path + "/run"], folder: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix(warning), run.stderr)
        let shell = try pausecam(["shell", rig, "--clock", "simulated", "--output", folder.path + "/shell"],
                                 input: "status\n", folder: folder)
        XCTAssertEqual(shell.status, 0, shell.stderr)
        XCTAssertTrue(shell.stderr.hasPrefix(warning), shell.stderr)
    }

    func testAnOutputFolderThatCannotBeMadeIsAWarningForCheckAndARigErrorForRunAndShell() throws {
        let folder = try ProcessRunner.temporaryDirectory("rig-warnings-folder")
        let file = folder.appendingPathComponent("a-file")
        try Data().write(to: file)
        let movies = file.path + "/movies"
        let rig = try Self.write(Self.virtualRig(output: "directory: \(movies)", steps: ["record", "wait: 200ms", "stop"]),
                                 to: folder)
        let problem = "output.directory: cannot create the output folder \(movies): \(file.path) is a file, not a folder"
        let check = try pausecam(["check", rig], folder: folder)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stderr, "\(rig):6:14: warning: \(problem); `run` and `shell` refuse this rig (exit "
                       + "status 2) unless --output names a folder they can write\n")
        for command in ["run", "shell"] {
            let refused = try pausecam([command, rig, "--clock", "simulated"], input: "record\nstop\n", folder: folder)
            XCTAssertEqual(refused.status, 2, "\(command): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("\(rig):6:14: \(problem); choose a folder you can write in "
                                                  + "output.directory or with --output"), refused.stderr)
            XCTAssertFalse(refused.stdoutText.contains("record"), refused.stdoutText)
        }
        // --output replaces the rig's folder: nothing to warn about, and the run records.
        let moved = try pausecam(["run", rig, "--clock", "simulated", "--output", folder.path + "/out"], folder: folder)
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertFalse(moved.stderr.contains(": warning:"), moved.stderr)
    }
}
