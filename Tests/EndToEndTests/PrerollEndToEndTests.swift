import Foundation
import XCTest

/// `preroll:` through the binary: `record` and `resume` take the movie back before the press, from the frames and
/// sound kept while idle or paused. The virtual lens flashes on the first frame at or after each whole second of the
/// clock and the virtual microphone beeps there, so a movie that begins at the frame of t = 7 s shows it by a flash
/// on its first frame, and every flash has its beep.
final class PrerollEndToEndTests: XCTestCase {
    static let frame = 1.0 / 30

    /// The e2e rig with `extra` appended, in a fresh folder; returns the rig's path and the output folder.
    func rig(_ name: String, _ extra: String) throws -> (rig: String, output: URL) {
        let directory = try ProcessRunner.temporaryDirectory(name)
        let rig = directory.appendingPathComponent("preroll.yaml")
        let text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8) + extra
        try text.write(to: rig, atomically: true, encoding: .utf8)
        return (rig.path, directory.appendingPathComponent("out"))
    }

    /// The flash frames' movie times and the beeps' onsets of `movie`.
    func flashesAndBeeps(_ movie: String) throws -> (frames: [Double], flashes: [Double], beeps: [Double]) {
        let probe = MediaProbe(path: movie)
        let times = try probe.videoFrames().map(\.time)
        let colours = try probe.regionColors(x: 4, y: 4, width: 36, height: 36)
        XCTAssertEqual(colours.count, times.count)
        let flashes = colours.enumerated().filter { $0.element.0 > 180 && $0.element.1 > 180 && $0.element.2 > 180 }
            .map { times[$0.offset] }
        return (times, flashes, RecordingEndToEndTests.beepOnsets(try probe.audioSamples()))
    }

    func sidecarScenes(_ output: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: output.appendingPathComponent("e2e-rig.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["scenes"] as? [[String: Any]] ?? []
    }

    func testRecordAndResumeReachBackOnTheSimulatedClock() throws {
        let (rig, output) = try rig("preroll-simulated", "preroll: 3s\n")
        // record at 10 s (back to 7 s); pause at 12; resume at 14, only 2 s after the pause (back to 12, not 11);
        // pause at 16; resume at 21 (back to 18); stop at 22.
        let input = "wait 10s\nrecord\nwait 2s\npause\nwait 2s\nresume\nwait 2s\npause\nwait 5s\nresume\nwait 1s\nstop\n"
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rig, "--clock", "simulated", "--output", output.path],
                                           input: input)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let movie = output.appendingPathComponent("e2e-rig.mov").path
        let (frames, flashes, beeps) = try flashesAndBeeps(movie)
        // 7–12, 12–16 and 18–22 of capture time: 13 s of frames, one flash per whole second of capture time.
        XCTAssertEqual(frames.count, 13 * 30, "frames")
        XCTAssertEqual(frames.first ?? -1, 0, accuracy: 1e-6)
        XCTAssertEqual(flashes.first ?? -1, 0, accuracy: 1e-6, "the first frame is not the flash of t = 7 s")
        XCTAssertEqual(flashes.count, 13, "flashes at \(flashes)")
        for (index, flash) in flashes.enumerated() {
            XCTAssertEqual(flash, Double(index), accuracy: 1e-3, "flashes at \(flashes)")
        }
        // Sound in sync: every flash has its beep within 5 ms, and no beep is without a flash.
        XCTAssertEqual(beeps.count, flashes.count, "beeps at \(beeps), flashes at \(flashes)")
        for flash in flashes {
            XCTAssertTrue(beeps.contains { abs($0 - flash) <= 0.005 }, "flash at \(flash) has no beep; beeps \(beeps)")
        }
        // The sidecar's scenes begin at the edges and keep the presses: 3 s, then 2 s (the pause was shorter), 3 s.
        let scenes = try sidecarScenes(output)
        XCTAssertEqual(scenes.compactMap { $0["start"] as? Double }.map { ($0 * 1000).rounded() / 1000 }, [0, 5, 9])
        XCTAssertEqual(scenes.compactMap { $0["preroll"] as? Double }.map { ($0 * 1000).rounded() / 1000 }, [3, 2, 3])
        // One chapter per scene at those starts.
        let chapters = try MediaProbe(path: movie).chapters()
        XCTAssertEqual(chapters.map { ($0.start * 1000).rounded() / 1000 }, [0, 5, 9])
    }

    func testWithoutPrerollTheMovieBeginsAtThePress() throws {
        let (rig, output) = try rig("preroll-none", "")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rig, "--clock", "simulated", "--output", output.path],
                                           input: "wait 10s\nrecord\nwait 2s\nstop\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let (frames, flashes, _) = try flashesAndBeeps(output.appendingPathComponent("e2e-rig.mov").path)
        XCTAssertEqual(frames.count, 60)
        XCTAssertEqual(flashes.map { ($0 * 1000).rounded() / 1000 }, [0, 1])
        XCTAssertNil(try sidecarScenes(output).first?["preroll"])
    }

    func testCheckStatesThePrerollsMemory() throws {
        let (rig, _) = try rig("preroll-check", "preroll: {length: 3s, memory: 64 MiB}\n")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["check", rig])
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("preroll: 3s before each record and resume; memory at most 64 MiB"),
                      result.stdoutText)
    }

    func testRecordAsksForLessThanTheRigKeepsAndItsResumesFollow() throws {
        let (rig, output) = try rig("preroll-asked", "preroll: 3s\n")
        // record --preroll 1s at 10 s (back to 9); pause at 11; resume at 15 (back to 14, not 12); stop at 16.
        let input = "wait 10s\nrecord --preroll 1s Intro\nwait 1s\npause\nwait 4s\nresume\nwait 1s\nstop\n"
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rig, "--clock", "simulated", "--output", output.path],
                                           input: input)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let (frames, flashes, _) = try flashesAndBeeps(output.appendingPathComponent("e2e-rig.mov").path)
        XCTAssertEqual(frames.count, 4 * 30)
        XCTAssertEqual(flashes.map { ($0 * 1000).rounded() / 1000 }, [0, 1, 2, 3])
        let scenes = try sidecarScenes(output)
        XCTAssertEqual(scenes.first?["title"] as? String, "Intro")
        XCTAssertEqual(scenes.compactMap { $0["preroll"] as? Double }.map { ($0 * 1000).rounded() / 1000 }, [1, 1])
    }

    func testRecordPrerollIsRefusedWhereTheRigKeepsNone() throws {
        let (rig, output) = try rig("preroll-refused", "")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rig, "--clock", "simulated", "--output", output.path],
                                           input: "wait 1s\nrecord --preroll 2s\nwait 1s\n")
        XCTAssertTrue((result.stdoutText + result.stderr).contains("this rig keeps no preroll; add preroll: 2s to the rig"),
                      result.stdoutText + result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("e2e-rig.mov").path))
    }

    /// On the real clock the kept frames reach the encoder as a backlog drained at twice real time, so none is
    /// refused by its queue: every frame of the preroll and of the press's scene is written, in sync.
    func testRecordReachesBackOnTheRealClock() throws {
        try SanitizerRun.skipTimingBound(under: ["thread", "address"],
                                         "\"an encoder at twice real time drops no frame of the catch-up\"")
        let (rig, output) = try rig("preroll-real", "preroll: 1s\n")
        let input = "wait 2s\nrecord\nwait 3s\nstop\n"
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, ["shell", rig, "--output", output.path],
                                           input: input)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let movie = output.appendingPathComponent("e2e-rig.mov").path
        let (frames, flashes, beeps) = try flashesAndBeeps(movie)
        // 1 s of preroll and the 3 s waited (a shell's wait on the real clock may overrun by a little).
        XCTAssertGreaterThanOrEqual(Double(frames.count) * Self.frame, 4.0 - 2 * Self.frame, "frames \(frames.count)")
        XCTAssertLessThan(Double(frames.count) * Self.frame, 4.5, "frames \(frames.count)")
        XCTAssertGreaterThanOrEqual(flashes.count, 3, "flashes at \(flashes)")
        for flash in flashes {
            XCTAssertTrue(beeps.contains { abs($0 - flash) <= 0.005 }, "flash at \(flash) has no beep; beeps \(beeps)")
        }
        let data = try Data(contentsOf: output.appendingPathComponent("e2e-rig.json"))
        let sidecar = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let video = sidecar["video"] as? [String: Any] ?? [:]
        XCTAssertEqual(video["frames_dropped"] as? Int, 0, "\(video)")
        XCTAssertEqual(video["late_frames_dropped"] as? Int, 0, "\(video)")
        let scene = (sidecar["scenes"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(scene["preroll"] as? Double ?? 0, 1.0, accuracy: 1e-6, "\(scene)")
    }

    /// The ISOs reach back with the program: each lens's movie begins at the frame of t = 7 s too, as long as the
    /// program's, its flashes where the program's are.
    func testTheIsosReachBackWithTheProgram() throws {
        let directory = try ProcessRunner.temporaryDirectory("preroll-iso")
        let rig = directory.appendingPathComponent("preroll.yaml")
        let text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "output:\n", with: "output:\n  iso: [main, tele]\n") + "preroll: 3s\n"
        try text.write(to: rig, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out")
        // Scene 1 reaches back to 7 s on main, a switch to tele at 11 s, a pause at 13; resumed at 17: back to 14; stop at
        // 18. Ten seconds of movie.
        let input = "wait 10s\nrecord\nwait 1s\nlens tele\nwait 2s\npause\nwait 4s\nresume\nwait 1s\nstop\n"
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rig.path, "--clock", "simulated", "--output", output.path],
                                           input: input)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let program = try flashesAndBeeps(output.appendingPathComponent("e2e-rig.mov").path)
        XCTAssertEqual(program.frames.count, 10 * 30)
        XCTAssertEqual(program.flashes.map { ($0 * 1000).rounded() / 1000 }, (0..<10).map(Double.init))
        for lens in ["main", "tele"] {
            let iso = try flashesAndBeeps(output.appendingPathComponent("e2e-rig.iso/\(lens).mov").path)
            XCTAssertEqual(iso.frames.count, program.frames.count, lens)
            XCTAssertEqual(iso.flashes, program.flashes, lens)
            XCTAssertEqual(iso.beeps.count, program.beeps.count, lens)
        }
    }

    /// A rig of voices keeps its mix of 2 + N channels: each voice's track reaches back with the picture, in sync.
    func testEveryVoiceReachesBack() throws {
        let (rig, output) = try rig("preroll-voices", "")
        let voices = try String(contentsOfFile: ProcessRunner.rig("e2e-voices.yaml"), encoding: .utf8) + "preroll: 3s\n"
        try voices.write(toFile: rig, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rig, "--clock", "simulated", "--output", output.path],
                                           input: "wait 10s\nrecord\nwait 2s\nstop\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let movie = output.appendingPathComponent("e2e-voices.mov").path
        let (frames, flashes, _) = try flashesAndBeeps(movie)
        XCTAssertEqual(frames.count, 5 * 30)
        XCTAssertEqual(flashes.map { ($0 * 1000).rounded() / 1000 }, [0, 1, 2, 3, 4])
        for track in 0..<3 {
            let beeps = RecordingEndToEndTests.beepOnsets(try MediaProbe(path: movie).audioSamples(track: track))
            XCTAssertEqual(beeps.count, flashes.count, "track \(track): beeps at \(beeps)")
            for flash in flashes {
                XCTAssertTrue(beeps.contains { abs($0 - flash) <= 0.005 }, "track \(track): flash at \(flash); beeps \(beeps)")
            }
        }
    }

    /// `retake` goes back to the scene's own start (its preroll included) and the new take begins at the retake,
    /// reaching back no further.
    func testARetakeGoesBackToTheScenesStartNotFurther() throws {
        let (rig, output) = try rig("preroll-retake", "preroll: 3s\n")
        // record at 10 (back to 7), retake at 12: the take 7–12 is thrown away; the new take 12–14.
        let input = "wait 10s\nrecord\nwait 2s\nretake\nwait 2s\nstop\n"
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path,
                                           ["shell", rig, "--clock", "simulated", "--output", output.path],
                                           input: input)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        let (frames, flashes, _) = try flashesAndBeeps(output.appendingPathComponent("e2e-rig.mov").path)
        XCTAssertEqual(frames.count, 2 * 30)
        XCTAssertEqual(flashes.map { ($0 * 1000).rounded() / 1000 }, [0, 1])
        let scenes = try sidecarScenes(output)
        XCTAssertEqual(scenes.count, 1)
        XCTAssertNil(scenes.first?["preroll"], "the new take was not taken back: \(scenes)")
    }
}
