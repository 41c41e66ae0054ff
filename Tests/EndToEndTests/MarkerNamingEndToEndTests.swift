import Foundation
import PauseCamCore
import XCTest

/// `mark` with no text and `mark rename N TEXT` through the built binary: the shell on the simulated clock, then
/// `pausecam ctl` on a running shell. The numbered markers and the names given afterwards reach the sidecar and the
/// exports made from it.
final class MarkerNamingEndToEndTests: XCTestCase {
    func testABareMarkIsANumberedMarkerInTheSidecarAndARenameReachesTheExports() throws {
        let input = ["record", "wait 1s", "mark", "mark good take", "wait 1s", "chapter Two", "wait 1s", "mark",
                     "mark rename 1 opening", "wait 1s", "stop"]
        let run = try ShellTranscriptTests.shell(input.joined(separator: "\n") + "\n", name: "marker-naming")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertTrue(run.transcript.contains("marked \"Marker 1\" at 00:00:01.0; name it with: mark rename 1 TEXT\n"),
                      run.transcript)
        XCTAssertTrue(run.transcript.contains("marked \"good take\" at 00:00:01.0 (marker 2)\n"), run.transcript)
        XCTAssertTrue(run.transcript.contains("marked \"Marker 3\" at 00:00:03.0; name it with: mark rename 3 TEXT\n"),
                      run.transcript)
        XCTAssertTrue(run.transcript.contains("marker 1 at 00:00:01.0 is now \"opening\"\n"), run.transcript)

        let (_, sidecar) = try ShellTranscriptTests.movie(in: run.directory)
        XCTAssertEqual(sidecar.scenes.map { $0.markers.map(\.text) }, [["opening", "good take"], ["Marker 3"]])
        XCTAssertEqual(sidecar.scenes[1].markers.first?.time ?? -1, 3.0, accuracy: 1e-6)

        let export = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["export", run.directory.appendingPathComponent("e2e-rig.json").path,
                                            "--format", "csv"])
        XCTAssertEqual(export.status, 0, export.stderr)
        let csv = try String(contentsOf: run.directory.appendingPathComponent("e2e-rig.csv"), encoding: .utf8)
        for name in ["opening", "good take", "Marker 3"] { XCTAssertTrue(csv.contains(name), csv) }
        XCTAssertFalse(csv.contains("Marker 1"), "the rename replaced the number's name: \(csv)")
    }

    func testCtlMarkWithoutTextIsNumberedAndCtlNamesItAfterwards() throws {
        let shell = try ControlledShell(name: "ctl-marker")
        try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertEqual(try shell.ctl(["record"]).status, 0)
        let recording = try shell.waitForStatus { ($0["timer"] as? Double ?? 0) >= 0.5 }
        let mark = try shell.ctl(["mark"])
        XCTAssertEqual(mark.status, 0, mark.stderr)
        XCTAssertTrue(mark.stdoutText.hasPrefix("marked \"Marker 1\" at "), mark.stdoutText)
        XCTAssertTrue(mark.stdoutText.contains("; name it with: mark rename 1 TEXT"), mark.stdoutText)
        let rename = try shell.ctl(["mark", "rename", "1", "from", "ctl"])
        XCTAssertEqual(rename.status, 0, rename.stderr)
        XCTAssertTrue(rename.stdoutText.hasPrefix("marker 1 at "), rename.stdoutText)
        let wrong = try shell.ctl(["mark", "rename", "7", "nothing"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.contains("this clip has no marker 7 (it has 1: 1 to 1)"), wrong.stderr)
        let moviePath = try XCTUnwrap(recording["file"] as? String)
        XCTAssertEqual(try shell.ctl(["stop"]).status, 0)
        let sidecarPath = String(moviePath.dropLast(3)) + "json"
        try shell.waitForStatus { $0["state"] as? String == "idle" && FileManager.default.fileExists(atPath: sidecarPath) }
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)
        XCTAssertTrue(shell.running.stdout.contains("* mark (remote): marked \"Marker 1\""), shell.running.stdout)
        let sidecar = try Sidecar.decode(try Data(contentsOf: URL(fileURLWithPath: sidecarPath)))
        XCTAssertEqual(sidecar.scenes.flatMap { $0.markers.map(\.text) }, ["from ctl"])
    }
}
