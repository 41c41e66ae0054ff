import Foundation
import PauseCamCore
import XCTest

/// The recording time left through the built binary: `status --json`'s `time_left_s` and `time_left_warning`
/// (unknown before a clip, measured while one records, kept while idle) and `doctor`'s finding at the newest clip's
/// rate. The figures depend on this machine's disk, so the tests check their kind and their agreement, not values.
final class RecordingTimeLeftEndToEndTests: XCTestCase {
    func testStatusJSONCarriesTheTimeLeftOnceAClipIsMeasured() throws {
        let shell = try ControlledShell(name: "time-left")
        let idle = try shell.waitForStatus { $0["state"] as? String == "idle" }
        XCTAssertTrue(idle["time_left_s"] is NSNull, "no clip yet, no rate: \(idle)")
        XCTAssertEqual(idle["time_left_warning"] as? Bool, false)
        XCTAssertEqual(try shell.ctl(["record"]).status, 0)
        let measured = try shell.waitForStatus { $0["time_left_s"] is Int }
        XCTAssertEqual(measured["state"] as? String, "recording")
        let seconds = try XCTUnwrap(measured["time_left_s"] as? Int)
        XCTAssertGreaterThanOrEqual(seconds, 0)
        XCTAssertEqual(measured["time_left_warning"] as? Bool, seconds <= 600)
        let moviePath = try XCTUnwrap(measured["file"] as? String)
        XCTAssertEqual(try shell.ctl(["stop"]).status, 0)
        let sidecarPath = String(moviePath.dropLast(3)) + "json"
        let after = try shell.waitForStatus {
            $0["state"] as? String == "idle" && FileManager.default.fileExists(atPath: sidecarPath)
        }
        XCTAssertTrue(after["time_left_s"] is Int, "idle keeps the clip's rate: \(after)")
        XCTAssertEqual(shell.finish(), 0, shell.running.stderr)

        // Doctor, on the folder that now holds the clip, gives it at that clip's rate.
        let rig = ProcessRunner.rig("e2e.yaml")
        let doctor = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["doctor", rig, "--output", shell.outputDirectory.path],
                                           environment: ["XDG_CACHE_HOME": shell.runtimeDirectory.path])
        let movie = (moviePath as NSString).lastPathComponent
        let line = doctor.stdoutText.split(separator: "\n").first { $0.contains("recording time left: about ") }
        XCTAssertNotNil(line, doctor.stdoutText)
        XCTAssertTrue(line?.hasSuffix(", the rate of \(movie), the newest clip there") ?? false, doctor.stdoutText)
    }
}
