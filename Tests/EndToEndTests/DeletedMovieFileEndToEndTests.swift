import Foundation
import PauseCamCore
import XCTest

/// The movie's `.partial`, or the whole output folder, deleted while a clip records: the periodic health check
/// notices (the open file's link count is 0), warns at once and stops the clip, and the end says what really
/// happened — nothing of the movie could be saved, the sidecar is kept or not — instead of pointing to a `.partial`
/// that is gone; `pausecam run` exits 1.
final class DeletedMovieFileEndToEndTests: XCTestCase {
    func testAPartialDeletedWhileRecordingIsNoticedAndTheEndTellsTheTruth() throws {
        let folder = try ProcessRunner.temporaryDirectory("deleted-partial").appendingPathComponent("clips")
        let running = try startRecording(into: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("e2e-pedal-rig.mov.partial"))
        XCTAssertEqual(running.waitForExit(seconds: 60), 1, running.stdout + running.stderr)
        try assertToldTheTruth(running, folder: folder)
        XCTAssertTrue(running.stderr.contains("its sidecar \(folder.path)/e2e-pedal-rig.json is kept"), running.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["e2e-pedal-rig.json"])
        let sidecar = try Sidecar.decode(Data(contentsOf: folder.appendingPathComponent("e2e-pedal-rig.json")))
        XCTAssertFalse(sidecar.complete)
        XCTAssertTrue(sidecar.warnings.contains { $0.contains("e2e-pedal-rig.mov.partial was deleted while recording") },
                      "\(sidecar.warnings)")
    }

    func testTheOutputFolderDeletedWhileRecordingIsNoticedAndNotMadeAgain() throws {
        let folder = try ProcessRunner.temporaryDirectory("deleted-folder").appendingPathComponent("clips")
        let running = try startRecording(into: folder)
        try FileManager.default.removeItem(at: folder)
        XCTAssertEqual(running.waitForExit(seconds: 60), 1, running.stdout + running.stderr)
        try assertToldTheTruth(running, folder: folder)
        XCTAssertTrue(running.stderr.contains("nothing else of the clip was saved either (its folder is gone)"),
                      running.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
    }

    /// `pausecam run` of a 10-minute script, once its clip has a frame (the sidecar is first written with it).
    private func startRecording(into folder: URL) throws -> RunningCommand {
        let running = try RunningCommand(["run", ProcessRunner.rig("e2e-pedal.yaml"), "--script", "pedal",
                                          "--output", folder.path])
        let sidecar = folder.appendingPathComponent("e2e-pedal-rig.json").path
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: sidecar) && Date() < deadline && running.process.isRunning {
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecar), running.stderr)
        return running
    }

    private func assertToldTheTruth(_ running: RunningCommand, folder: URL,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let partial = folder.appendingPathComponent("e2e-pedal-rig.mov.partial").path
        let warning = try XCTUnwrap(running.stderr.range(of: "\(partial) was deleted while recording (by hand, or with its "
                                                         + "folder): nothing of this clip can be saved; stopping it"),
                                    running.stderr, file: file, line: line)
        let end = try XCTUnwrap(running.stderr.range(of: "the clip could not be finished: the movie's file \(partial) "
                                                     + "was deleted while recording, so nothing of the movie could be saved"),
                                running.stderr, file: file, line: line)
        XCTAssertLessThan(warning.lowerBound, end.lowerBound, "warned while recording, before the end", file: file, line: line)
        XCTAssertTrue(running.stdout.contains("script ended: the movie's file was deleted while recording"),
                      running.stdout, file: file, line: line)
        for promise in ["Everything recorded up to then is in", "ffmpeg -i"] {
            XCTAssertFalse(running.stderr.contains(promise), "points to a file that is gone: \(running.stderr)",
                           file: file, line: line)
        }
    }
}
