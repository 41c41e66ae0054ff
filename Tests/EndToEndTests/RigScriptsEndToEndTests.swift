import Foundation
import PauseCamCore
import XCTest

/// `pausecam check` and `pausecam run` on the repository's own rig files, through the built binary.
final class RigScriptsEndToEndTests: XCTestCase {
    func pausecam(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments)
    }

    func testEveryRigInRigsFolderChecksClean() throws {
        let rigs = try FileManager.default.contentsOfDirectory(atPath: ProcessRunner.rigsFolder.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertTrue(rigs.contains("virtual.yaml"))
        let result = try pausecam(["check"] + rigs.map { ProcessRunner.rigsFolder.appendingPathComponent($0).path })
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdoutText.contains("Virtual rig"), result.stdoutText)
    }

    func testBrokenRigGivesEveryErrorWithPositionAndExitStatus2() throws {
        let directory = try ProcessRunner.temporaryDirectory("broken")
        let path = directory.appendingPathComponent("broken.yaml").path
        try """
        name: Broken
        lenses:
          main:
            zom: 1
            virtual: {color: "#20c040"}
        default_lens: mian
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try pausecam(["check", path])
        XCTAssertEqual(result.status, 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("\(path):4:5:") && $0.contains("did you mean \"zoom\"") },
                      result.stderr)
        XCTAssertTrue(lines.contains { $0.hasPrefix("\(path):6:15:") && $0.contains("mian") }, result.stderr)
        // A rig with errors never records: `run` refuses it with the same messages and writes nothing.
        let run = try pausecam(["run", path, "--clock", "simulated", "--output", directory.path + "/out"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("\(path):4:5:"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path + "/out"))
    }

    func testEveryScriptOfTheVirtualRigRunsEndToEnd() throws {
        let rig = ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml").path
        for script in ["demo", "interview", "pauses"] {
            let directory = try ProcessRunner.temporaryDirectory("script-\(script)")
            let result = try pausecam(["run", rig, "--script", script, "--clock", "simulated", "--output", directory.path])
            XCTAssertEqual(result.status, 0, "\(script): \(result.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "\(script): \(names)")
            let sidecar = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent(
                String(movie.dropLast(4)) + ".json")))
            let probe = MediaProbe(path: directory.appendingPathComponent(movie).path)
            try probe.assertConstantRate(30)
            XCTAssertEqual(try probe.chapters().count, sidecar.scenes.filter { $0.duration > 0 }.count, script)
            // veryfast uses B-frames: the first frame must still be at 0 and the file as long as the sidecar says.
            XCTAssertEqual(try probe.videoFrames().first?.time ?? -1, 0, accuracy: 1e-6, script)
            XCTAssertEqual(try probe.duration(), sidecar.duration, accuracy: 0.022, script)
            XCTAssertEqual(try probe.decodeErrors(), "", script)
            XCTAssertTrue(sidecar.complete, script)
        }
    }

    /// A script step whose zoom factor the rig cannot reach (one 1x lens, digital zoom up to 4x: `zoom 9x`) fails
    /// `check` with its position, and `run` with exit 2 before anything is recorded, rather than at that step of an
    /// unattended run.
    func testAZoomStepBeyondTheRigFailsCheckAndRunBeforeRecording() throws {
        let folder = try ProcessRunner.temporaryDirectory("zoom-step")
        let rigPath = folder.appendingPathComponent("zoom.yaml").path
        try """
        name: Zoom rig
        output: {name: "{rig}", size: 160x90, fps: 30, video: {codec: h264, preset: ultrafast, crf: 30}}
        audio: {device: virtual}
        lenses:
          main: {zoom: 1, virtual: {color: "#20c040"}}
        scripts:
          take:
            - record: Take
            - zoom: 3x
            - wait: 1s
            - zoom: 9x
            - stop
        """.write(toFile: rigPath, atomically: true, encoding: .utf8)
        let expected = "\(rigPath):11:7: scripts.take step 4: zoom 9x is beyond this rig: digital zoom is limited "
            + "to 4x (max_digital_zoom)"
        let check = try pausecam(["check", rigPath])
        XCTAssertEqual(check.status, 2, check.stdoutText + check.stderr)
        XCTAssertTrue(check.stderr.contains(expected), check.stderr)
        XCTAssertFalse(check.stderr.contains("step 2"), "3x is within the limit: \(check.stderr)")

        let out = folder.appendingPathComponent("out")
        let run = try pausecam(["run", rigPath, "--clock", "simulated", "--output", out.path])
        XCTAssertEqual(run.status, 2, run.stdoutText + run.stderr)
        XCTAssertTrue(run.stderr.contains(expected), run.stderr)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        XCTAssertFalse(written.contains { $0.hasSuffix(".mov") }, "\(written)")
    }

    func testUnknownScriptAndUnknownCommandAreUsageErrors() throws {
        let rig = ProcessRunner.rigsFolder.appendingPathComponent("virtual.yaml").path
        let script = try pausecam(["run", rig, "--script", "intervew", "--clock", "simulated"])
        XCTAssertEqual(script.status, 2)
        XCTAssertTrue(script.stderr.contains("did you mean \"interview\""), script.stderr)
        let command = try pausecam(["rn", rig])
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.stderr.contains("did you mean \"run\""), command.stderr)
        let help = try pausecam(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdoutText.contains("pausecam run RIG"), help.stdoutText)
    }

    func testDevicesListsCamerasOrSaysHowToFindThem() throws {
        let result = try pausecam(["devices", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let cameras = try XCTUnwrap(object["cameras"] as? [Any], result.stdoutText)
        if cameras.isEmpty {
            // No camera: never an empty table, but advice on permissions.
            let advice = try XCTUnwrap(object["advice"] as? String, result.stdoutText)
            XCTAssertTrue(advice.contains("video") && advice.contains("/dev/video"), advice)
            let text = try pausecam(["devices", "--rig", ProcessRunner.rigsFolder.appendingPathComponent("desk.yaml").path])
            XCTAssertEqual(text.status, 0, text.stderr)
            XCTAssertTrue(text.stdoutText.contains("No cameras found"), text.stdoutText)
            XCTAssertTrue(text.stdoutText.contains("lens wide: no camera matches serial \"2F4A1C\""), text.stdoutText)
        }
    }
}
