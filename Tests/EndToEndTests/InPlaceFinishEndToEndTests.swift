import Foundation
import PauseCamCore
import XCTest

/// A `.mov` is finished in place: the `.partial`'s media bytes become the movie's (a new index is appended and one
/// header switches the file over), with the same packets, chapters and edit lists the copy made, and a SIGKILL at any
/// step of finishing leaves the complete movie or a `.partial` that plays.
final class InPlaceFinishEndToEndTests: XCTestCase {
    /// Two retakes and three scenes: video cuts, whole-packet audio cuts, chapters, the last audio packet trimmed.
    private let lines = ["record A", "wait 2s", "chapter B", "wait 1.01s", "retake", "wait 0.77s", "retake",
                         "wait 1.13s", "chapter C", "wait 2.5s", "stop"]

    /// The end-to-end rig with a fixed timecode, so that two recordings' movies can be compared whole, timecode
    /// track included (the time of day would differ between them).
    private func rig(in directory: URL) throws -> String {
        let rig = directory.appendingPathComponent("e2e.yaml")
        try (String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
             + "timecode: {start: \"01:00:00:00\"}\n").write(to: rig, atomically: true, encoding: .utf8)
        return rig.path
    }

    private func record(_ name: String, environment: [String: String] = [:]) throws -> (URL, ProcessResult) {
        let directory = try ProcessRunner.temporaryDirectory(name)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", try rig(in: directory), "--clock", "simulated", "--output", directory.path,
        ], input: lines.joined(separator: "\n") + "\n", environment: environment)
        return (directory, result)
    }

    /// Each stream's packets as ffprobe reads them (pts, dts, duration, size, flags), in the stream's own order.
    private func packets(_ path: String) throws -> [String] {
        let result = try ProcessRunner.run("/usr/bin/ffprobe", [
            "-v", "error", "-show_packets", "-show_entries", "packet=stream_index,pts,dts,duration,size,flags",
            "-of", "compact=p=0", path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText.split(separator: "\n").map(String.init).sorted { $0.prefix(14) < $1.prefix(14) }
    }

    private func summary(_ path: String) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/ffprobe", [
            "-v", "error", "-show_streams", "-show_format", "-show_chapters", "-of", "compact=p=0", "-show_entries",
            "stream=index,codec_name,start_time,duration,nb_frames,time_base:format=duration:chapter=start,end:chapter_tags",
            path,
        ])
        return result.stdoutText
    }

    func testTheMovieFinishedInPlaceHoldsWhatTheCopyHeld() throws {
        let (inPlace, first) = try record("in-place")
        XCTAssertEqual(first.status, 0, first.stdoutText + first.stderr)
        let (copied, second) = try record("by-copy", environment: ["PAUSECAM_FINISH_BY_COPY": "1"])
        XCTAssertEqual(second.status, 0, second.stdoutText + second.stderr)
        let movie = inPlace.appendingPathComponent("e2e-rig.mov").path
        let copy = copied.appendingPathComponent("e2e-rig.mov").path
        XCTAssertEqual(try packets(movie), try packets(copy))
        XCTAssertEqual(try summary(movie), try summary(copy))
        XCTAssertEqual(try MediaProbe(path: movie).chapters().compactMap(\.title), ["A", "B", "C"])
        XCTAssertEqual(try MediaProbe(path: movie).decodeErrors(), "")
        XCTAssertEqual(try MediaProbe(path: movie).mediaInfoFrameRateMode(), "CFR")
        let described = try summary(movie)
        XCTAssertTrue(described.contains("tag:handler_name=TimeCodeHandler|tag:timecode=01:00:00:00"), described)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: inPlace.path).sorted(),
                       ["e2e-rig.jpg", "e2e-rig.json", "e2e-rig.mov", "e2e.yaml"])
    }

    /// The movie is the `.partial` itself (same inode): its media was not copied. The remux gate holds finishing
    /// while the test notes which file the `.partial` is.
    func testTheMovieIsThePartialFileNotACopy() throws {
        let directory = try ProcessRunner.temporaryDirectory("in-place-inode")
        let gate = directory.appendingPathComponent("gate")
        let running = try RunningCommand(["shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated",
                                          "--output", directory.path],
                                         environment: ["PAUSECAM_FAULT_REMUX_GATE": gate.path], keepInputOpen: true)
        for line in ["record A", "wait 2s", "stop"] { running.send(line) }
        XCTAssertTrue(running.waitFor("stopping…"), running.stdout + running.stderr)
        let partial = directory.appendingPathComponent("e2e-rig.mov.partial").path
        let before = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: partial)[.systemFileNumber] as? Int)
        XCTAssertTrue(FileManager.default.createFile(atPath: gate.path, contents: Data()))
        running.send("quit")
        XCTAssertEqual(running.waitForExit(), 0, running.stdout + running.stderr)
        XCTAssertTrue(running.stdout.contains("saved"), running.stdout + running.stderr)
        let movie = directory.appendingPathComponent("e2e-rig.mov").path
        let after = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: movie)[.systemFileNumber] as? Int)
        XCTAssertEqual(after, before, "the movie is the .partial's file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial))
        XCTAssertEqual(try MediaProbe(path: movie).decodeErrors(), "")
    }

    /// SIGKILL at every step of finishing (`PAUSECAM_FAULT_FINISH_KILL_AT_STEP`): before the switch the `.partial`
    /// plays as the fragmented movie it was (all 7.5 s recorded, the discarded takes included, as after a crash
    /// while recording); from the switch on, the file is the finished 5.63 s movie, under either name.
    func testASIGKILLAtAnyStepOfFinishingLeavesTheMovieOrAPlayablePartial() throws {
        for step in 1...5 {
            let (directory, result) = try record("finish-kill-\(step)",
                                                 environment: ["PAUSECAM_FAULT_FINISH_KILL_AT_STEP": "\(step)"])
            XCTAssertEqual(result.status, SIGKILL, "step \(step): killed while finishing; " + result.stderr)
            let partial = directory.appendingPathComponent("e2e-rig.mov.partial").path
            let movie = directory.appendingPathComponent("e2e-rig.mov").path
            XCTAssertEqual(FileManager.default.fileExists(atPath: movie), step == 5, "step \(step)")
            for path in [partial, movie] where FileManager.default.fileExists(atPath: path) {
                let probe = MediaProbe(path: path)
                XCTAssertEqual(try probe.decodeErrors(), "", "step \(step): \(path)")
                XCTAssertEqual(try probe.duration(), step < 4 ? 7.5 : 5.634, accuracy: 0.01, "step \(step): \(path)")
            }
        }
    }
}
