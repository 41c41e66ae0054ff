import Foundation
import PauseCamCore
import XCTest

/// The built `pausecam` binary recording the virtual rig; every movie is checked with the real ffprobe/ffmpeg.
final class RecordingEndToEndTests: XCTestCase {
    static let frame = 1.0 / 30
    static let colors: [String: (Int, Int, Int)] = ["wide": (0xd0, 0x30, 0x30), "main": (0x20, 0xc0, 0x40),
                                                     "tele": (0x30, 0x50, 0xe0)]

    func runPausecam(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try ProcessRunner.run(BinaryLocator.pausecam.path, arguments, input: input)
    }

    /// The one movie, sidecar and thumbnail `pausecam run` left in `directory`.
    func outputs(in directory: URL) throws -> (movie: String, sidecar: Sidecar, thumbnail: String) {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let movie = try XCTUnwrap(names.first { $0.hasSuffix(".mov") }, "no movie in \(names)")
        XCTAssertFalse(names.contains { $0.hasSuffix(".partial") }, "a .partial was left behind: \(names)")
        let base = String(movie.dropLast(4))
        let sidecarData = try Data(contentsOf: directory.appendingPathComponent(base + ".json"))
        return (directory.appendingPathComponent(movie).path, try Sidecar.decode(sidecarData),
                directory.appendingPathComponent(base + ".jpg").path)
    }

    /// The `pauses` script's recorded spans in seconds from the start (the simulated clock starts on a whole second,
    /// so the 30 fps frame grid falls on whole seconds): (start, end) per scene, from its steps.
    static let pauseScriptSpans: [(Double, Double)] = {
        // waits between record/resume and pause/stop, and the paused waits, in script order.
        let recorded = [1.5, 2.9, 2.06, 0.53, 1.91, 0.97]
        let paused = [0.61, 0.43, 1.07, 0.29, 0.83]
        var spans: [(Double, Double)] = []
        var t = 0.0
        for (i, length) in recorded.enumerated() {
            spans.append((t, t + length))
            t += length
            if i < paused.count { t += paused[i] }
        }
        return spans
    }()

    /// Frames of a 30 fps grid captured in [start, end): what the retimer must keep for that span.
    static func gridFrames(_ start: Double, _ end: Double) -> Int {
        let first = Int((start * 30 - 1e-6).rounded(.up))
        let last = Int((end * 30 - 1e-6).rounded(.up)) - 1
        return max(0, last - first + 1)
    }

    func testPauseScriptMakesOneCleanMovieWithScenesLensesAndSync() throws {
        let directory = try ProcessRunner.temporaryDirectory("pauses")
        let result = try runPausecam(["run", ProcessRunner.rig("e2e.yaml"), "--script", "pauses",
                                      "--clock", "simulated", "--output", directory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("6 scene(s)"), result.stdoutText)
        let (moviePath, sidecar, thumbnail) = try outputs(in: directory)
        let probe = MediaProbe(path: moviePath)
        try probe.assertConstantRate(30)

        // Streams: H.264 + AAC.
        let streams = try probe.streams()
        XCTAssertEqual(streams.filter { $0.codecType == "video" }.map(\.codecName), ["h264"])
        XCTAssertEqual(streams.filter { $0.codecType == "audio" }.map(\.codecName), ["aac"])

        // Frame times strictly increasing, no gap over 1.5 frames.
        let frames = try probe.videoFrames()
        let times = frames.map(\.time)
        for (a, b) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThan(b, a)
            XCTAssertLessThanOrEqual(b - a, 1.5 * Self.frame + 1e-6, "gap between \(a) and \(b)")
        }
        XCTAssertEqual(times.first ?? -1, 0, accuracy: 1e-6)

        // Duration = the recorded spans (counted on the frame grid) ±1 frame.
        let expectedFrames = Self.pauseScriptSpans.reduce(0) { $0 + Self.gridFrames($1.0, $1.1) }
        let recordedSeconds = Self.pauseScriptSpans.reduce(0.0) { $0 + ($1.1 - $1.0) }
        XCTAssertEqual(frames.count, expectedFrames)
        let videoDuration = (times.last ?? 0) + Self.frame
        XCTAssertEqual(videoDuration, Double(expectedFrames) * Self.frame, accuracy: Self.frame)
        XCTAssertEqual(videoDuration, recordedSeconds, accuracy: Double(Self.pauseScriptSpans.count) * Self.frame)
        XCTAssertEqual(sidecar.duration, videoDuration, accuracy: 1e-3)

        // Audio and video durations equal within one AAC frame.
        XCTAssertEqual(try probe.audioDuration(), videoDuration, accuracy: 1024.0 / 48_000)

        // One chapter per scene, at the sidecar's scene starts.
        let chapters = try probe.chapters()
        XCTAssertEqual(chapters.compactMap(\.title), ["One", "Two", "Three", "Four", "Five", "Six"])
        XCTAssertEqual(chapters.count, sidecar.scenes.count)
        for (chapter, scene) in zip(chapters, sidecar.scenes) {
            XCTAssertEqual(chapter.start, scene.start, accuracy: Self.frame, "chapter \(scene.title)")
        }
        // Scene starts are frame-exact seams: each scene starts where the previous ended.
        for (a, b) in zip(sidecar.scenes, sidecar.scenes.dropFirst()) {
            XCTAssertEqual(a.start + a.duration, b.start, accuracy: 1e-6)
        }

        // The colour of every decoded frame matches the lens the sidecar says was recording.
        let background = try probe.regionColors(x: 270, y: 20, width: 40, height: 30)
        XCTAssertEqual(background.count, frames.count)
        let segments = sidecar.scenes.flatMap(\.lenses)
        XCTAssertEqual(Set(segments.map(\.lens)), ["wide", "main", "tele"])
        var mismatches: [String] = []
        for (index, frame) in frames.enumerated() where index < background.count {
            guard let segment = segments.last(where: { $0.start <= frame.time + 1e-6 }) else { continue }
            let want = Self.colors[segment.lens]!
            let got = background[index]
            if abs(got.0 - want.0) > 40 || abs(got.1 - want.1) > 40 || abs(got.2 - want.2) > 40 {
                mismatches.append("frame \(index) at \(frame.time): \(got) but lens \(segment.lens)")
            }
        }
        XCTAssertTrue(mismatches.isEmpty, mismatches.prefix(5).joined(separator: "\n"))

        // Every lens switch and scene start is a keyframe.
        for segment in segments {
            guard let index = times.firstIndex(where: { abs($0 - segment.start) < 1e-3 }) else {
                XCTFail("no frame at lens segment start \(segment.start)")
                continue
            }
            XCTAssertTrue(frames[index].keyframe, "frame at \(segment.start) (\(segment.lens)) is not a keyframe")
        }

        // Sync: every flash has its beep within one frame, and every beep outside the zoomed scene its flash.
        let flashes = try probe.regionColors(x: 4, y: 4, width: 36, height: 36).enumerated()
            .filter { $0.element.0 > 180 && $0.element.1 > 180 && $0.element.2 > 180 }
            .map { times[$0.offset] }
        let beeps = Self.beepOnsets(try probe.audioSamples())
        XCTAssertGreaterThanOrEqual(flashes.count, 5, "flashes: \(flashes)")
        for flash in flashes {
            XCTAssertTrue(beeps.contains { abs($0 - flash) <= Self.frame }, "flash at \(flash) has no beep; beeps \(beeps)")
        }
        let zoomedFrom = sidecar.scenes.last!.start
        for beep in beeps where beep < zoomedFrom - Self.frame {
            XCTAssertTrue(flashes.contains { abs($0 - beep) <= Self.frame }, "beep at \(beep) has no flash; flashes \(flashes)")
        }

        // The file decodes without a single error, and the thumbnail is a JPEG.
        XCTAssertEqual(try probe.decodeErrors(), "")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: thumbnail))
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8])

        // The sidecar tells the whole story.
        XCTAssertTrue(sidecar.complete)
        XCTAssertEqual(sidecar.pauses.count, 5)
        XCTAssertEqual(sidecar.pauses.map(\.afterScene), [1, 2, 3, 4, 5])
        XCTAssertEqual(sidecar.pauses[0].wallDuration ?? 0, 0.61, accuracy: 1e-9)
        XCTAssertEqual(sidecar.video.framesWritten, frames.count)
        XCTAssertEqual(sidecar.video.framesDropped, 0)
        XCTAssertEqual(sidecar.devices.map(\.role), ["wide", "main", "tele", "microphone"])
    }

    /// Times (s) where a beep starts: loud after at least 5 ms of quiet.
    static func beepOnsets(_ samples: [Int16]) -> [Double] {
        var onsets: [Double] = []
        var quiet = 240  // the file's start counts as quiet
        for (index, sample) in samples.enumerated() {
            let level = abs(Int(sample))
            if level > 3000 {
                if quiet >= 240, onsets.last.map({ Double(index) / 48_000 - $0 > 0.2 }) ?? true {
                    onsets.append(Double(index) / 48_000)
                }
                quiet = 0
            } else if level < 1000 {
                quiet += 1
            }
        }
        return onsets
    }

    func testTwoRecordingsWithTheSameNameNeverOverwrite() throws {
        let directory = try ProcessRunner.temporaryDirectory("twice")
        let arguments = ["run", ProcessRunner.rig("e2e.yaml"), "--script", "short", "--clock", "simulated",
                         "--output", directory.path]
        XCTAssertEqual(try runPausecam(arguments).status, 0)
        let first = directory.appendingPathComponent("e2e-rig.mov")
        let firstBytes = try Data(contentsOf: first)
        let second = try runPausecam(arguments)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try Data(contentsOf: first), firstBytes, "the first movie was changed")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        XCTAssertEqual(names, ["e2e-rig.mov", "e2e-rig.json", "e2e-rig.jpg", "e2e-rig-2.mov", "e2e-rig-2.json",
                               "e2e-rig-2.jpg"])
        for name in ["e2e-rig.mov", "e2e-rig-2.mov"] {
            let probe = MediaProbe(path: directory.appendingPathComponent(name).path)
            XCTAssertEqual(try probe.decodeErrors(), "")
            try probe.assertConstantRate(30)
        }
    }

    func testAudioNoneRecordsVideoOnlyAndSaysSo() throws {
        let directory = try ProcessRunner.temporaryDirectory("silent")
        let result = try runPausecam(["run", ProcessRunner.rig("e2e-silent.yaml"), "--script", "short",
                                      "--clock", "simulated", "--output", directory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("video only"), result.stderr)
        let (movie, sidecar, _) = try outputs(in: directory)
        XCTAssertEqual(try MediaProbe(path: movie).streams().filter { $0.codecType != "data" }.map(\.codecType), ["video"])
        try MediaProbe(path: movie).assertConstantRate(30)
        XCTAssertNil(sidecar.audio)
    }

    func testMicrophoneThatCannotOpenGivesVideoOnlyWithAWarning() throws {
        let directory = try ProcessRunner.temporaryDirectory("nomic")
        // The real clock: a real microphone cannot run on the simulated one.
        let result = try runPausecam(["run", ProcessRunner.rig("e2e-nomic.yaml"), "--script", "short",
                                      "--clock", "real", "--output", directory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("PauseCamNoSuchCard") && result.stderr.contains("cannot be opened"),
                      result.stderr)
        let (movie, sidecar, _) = try outputs(in: directory)
        XCTAssertEqual(try MediaProbe(path: movie).streams().filter { $0.codecType != "data" }.map(\.codecType), ["video"])
        try MediaProbe(path: movie).assertConstantRate(30)
        XCTAssertTrue(sidecar.warnings.contains { $0.contains("PauseCamNoSuchCard") }, "\(sidecar.warnings)")
    }

    /// Opening the movie takes 400 ms (x264 and the file on a slow machine, injected): a scripted 1.5 s scene is
    /// still 1.5 s long — the script keeps its own clock, and the frames captured while the movie opened belong to the
    /// clip. (The virtual lenses tick on the serial context, so they wait for the opening anyway; frames from a
    /// capture thread during the opening are tested in `SlowStartTests`.)
    func testASlowStartStillRecordsFromTheRecordCommand() throws {
        let directory = try ProcessRunner.temporaryDirectory("slow-open")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", ProcessRunner.rig("e2e.yaml"), "--script", "pauses", "--clock", "real", "--output", directory.path,
        ], environment: ["PAUSECAM_FAULT_SLOW_OPEN_MS": "400"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (_, sidecar, _) = try outputs(in: directory)
        // Scene One is scripted 0.37 + 1.13 = 1.5 s; a busy machine may take an edge a frame or two late.
        XCTAssertEqual(sidecar.scenes.first?.duration ?? 0, 1.5, accuracy: 3 * Self.frame, "\(sidecar.scenes)")
    }

    /// Opening the movie takes 800 ms (injected): `record` answers at once and the steps after it keep their
    /// times, because x264 and the file open on the writer's own thread, not on the serial context. A lens switch
    /// scripted 0.3 s after `record` lands 0.3 s into the movie; with the open on the context it landed after it.
    func testASlowOpenDoesNotDelayTheStepsAfterRecord() throws {
        let directory = try ProcessRunner.temporaryDirectory("slow-open-steps")
        let rig = try ProcessRunner.temporaryDirectory("slow-open-rig").appendingPathComponent("rig.yaml")
        let text = try String(contentsOfFile: ProcessRunner.rig("e2e.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "scripts:\n", with: """
            scripts:
              early-switch:
                - record
                - wait: 0.3s
                - lens: wide
                - wait: 1.5s
                - stop

            """)
        try text.write(to: rig, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", rig.path, "--script", "early-switch", "--clock", "real", "--output", directory.path,
        ], environment: ["PAUSECAM_FAULT_SLOW_OPEN_MS": "800"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (movie, sidecar, _) = try outputs(in: directory)
        let wide = try XCTUnwrap(sidecar.switches.first { $0.lens == "wide" }, "\(sidecar.switches)")
        // Commands on the real clock fall between frames; a loaded machine may take a step a few frames late,
        // never the 0.8 s the open takes.
        XCTAssertEqual(wide.requested, 0.3, accuracy: 0.25, "\(sidecar.switches)")
        XCTAssertEqual(sidecar.duration, 1.8, accuracy: 0.25)
        try MediaProbe(path: movie).assertConstantRate(30)
    }

    func testASlowEncoderDropsAndCountsFramesAndTheMovieStaysValidAndInSync() throws {
        try SanitizerRun.skipTimingBound(under: ["thread"], "\"3 s of script hold 90 to 93 frames\"")
        let directory = try ProcessRunner.temporaryDirectory("slow")
        // Every frame costs 100 ms more to encode: a third of real time.
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", ProcessRunner.rig("slow-encoder.yaml"), "--script", "three-seconds", "--clock", "real",
            "--output", directory.path,
        ], environment: ["PAUSECAM_FAULT_SLOW_ENCODER_MS": "100"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (moviePath, sidecar, _) = try outputs(in: directory)
        let probe = MediaProbe(path: moviePath)
        let frames = try probe.videoFrames()
        XCTAssertGreaterThan(sidecar.video.framesDropped, 30, "an encoder at a third of real time must drop")
        XCTAssertEqual(frames.count, sidecar.video.framesWritten)
        // A dropped picture keeps its frame (the picture before, repeated): the movie stays constant-rate.
        // Commands on the real clock fall between frames, and a busy machine may take the stop a frame or two
        // late: 3 s hold 90 to 93 frames.
        try probe.assertConstantRate(30)
        XCTAssertTrue((90...93).contains(frames.count), "every frame keeps its place: \(frames.count)")
        XCTAssertTrue(sidecar.warnings.contains { $0.contains("frames dropped") }, "\(sidecar.warnings)")
        XCTAssertTrue(result.stderr.contains("frames dropped in the last 00:00:02.0: the encoder cannot keep up"),
                      "a live event while recording: \(result.stderr)")
        XCTAssertTrue(result.stdoutText.contains("\(sidecar.video.framesDropped) dropped frame(s)"), result.stdoutText)
        // Timestamps keep their place, audio stays in sync.
        let times = frames.map(\.time)
        for (a, b) in zip(times, times.dropFirst()) { XCTAssertGreaterThan(b, a) }
        XCTAssertEqual(sidecar.duration, 3, accuracy: 4 * Self.frame)
        XCTAssertEqual(try probe.audioDuration(), sidecar.duration, accuracy: 1024.0 / 48_000 + 4 * Self.frame)
        XCTAssertEqual(try probe.decodeErrors(), "")
    }

    /// A script's first `record` waits until the cameras have started: a clip starts at its first frame, and a
    /// camera a second slow to open must not take that second out of a 3 s scene (it did: 2 s, 60 frames).
    func testAScriptsFirstRecordWaitsForCamerasThatAreSlowToStart() throws {
        let directory = try ProcessRunner.temporaryDirectory("slow-camera")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "run", ProcessRunner.rig("slow-encoder.yaml"), "--script", "three-seconds", "--clock", "real",
            "--output", directory.path,
        ], environment: ["PAUSECAM_FAULT_SLOW_CAMERA_START_MS": "1000"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let (moviePath, sidecar, _) = try outputs(in: directory)
        let frames = try MediaProbe(path: moviePath).videoFrames()
        // The same bound as every 3 s real-clock script: the stop may come a frame or two late, never early.
        XCTAssertTrue((90...93).contains(frames.count), "the whole 3 s scene: \(frames.count) frames")
        XCTAssertEqual(sidecar.duration, 3, accuracy: 4 * Self.frame)
    }

    func testARequiredMicrophoneThatCannotOpenIsAClearErrorBeforeAnythingIsRecorded() throws {
        let directory = try ProcessRunner.temporaryDirectory("required")
        let output = directory.appendingPathComponent("out")
        let result = try runPausecam(["run", ProcessRunner.rig("e2e-required-mic.yaml"), "--script", "short",
                                      "--clock", "real", "--output", output.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("the microphone is required") && result.stderr.contains("PauseCamNoSuchCard")
                      && result.stderr.contains("nothing was recorded"), result.stderr)
        XCTAssertFalse(result.stderr.contains("--help"), "a device failure is not a usage mistake: \(result.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "nothing may be written")
    }

    /// SIGKILL mid-scene: what the `.partial` held on disk before the kill is still there and plays, and the sidecar
    /// (rewritten at every scene edge) holds the finished scene. The `.partial` is watched until it holds 3 s (all
    /// of scene 1 and a second of scene 2) rather than the test sleeping and guessing how far a loaded machine got:
    /// fragments are cut every 0.5 s, so it gets there within seconds unless the file is only written at the end.
    func testSIGKILLLeavesAPartialMovieAndASidecarWithEveryFinishedScene() throws {
        try SanitizerRun.skipTimingBound(under: ["thread", "address"], "\"scene 1 ends within 0.5 s of its script's 2 s\"")
        let directory = try ProcessRunner.temporaryDirectory("kill")
        let process = Process()
        process.executableURL = BinaryLocator.pausecam
        process.arguments = ["run", ProcessRunner.rig("e2e.yaml"), "--script", "long", "--clock", "real",
                             "--output", directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let sidecarURL = directory.appendingPathComponent("e2e-rig.json")
        let partial = directory.appendingPathComponent("e2e-rig.mov.partial").path
        // The script's second scene lasts 60 s; 30 s of watching is far more than 3 s of movie needs.
        let onDisk = MediaProbe.waitUntilHeld([partial], seconds: 3.0)[0]
        XCTAssertGreaterThanOrEqual(onDisk, 3.0, "the .partial did not grow while recording")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)

        XCTAssertTrue(FileManager.default.fileExists(atPath: partial))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("e2e-rig.mov").path))
        XCTAssertGreaterThanOrEqual(MediaProbe(path: partial).heldSeconds(), onDisk, "the .partial still reads, as far as before the kill")
        let sidecar = try Sidecar.decode(try Data(contentsOf: sidecarURL))
        XCTAssertFalse(sidecar.complete)
        XCTAssertEqual(sidecar.scenes.first?.name, "First")
        XCTAssertEqual(sidecar.pauses.first?.afterScene, 1)
        // Scene 1 is scripted 2 s. On the real clock the pause falls when the script's thread wakes from its wait:
        // never early (the scene may start up to a frame after `record`), late by however long a loaded machine
        // took to wake it. The exact length is checked on the simulated clock
        // (`ScriptRunnerTimingTests.testAScriptsWaitsDoNotAddUpTheTimeItsOtherStepsTake`).
        let first = sidecar.scenes.first?.duration ?? 0
        XCTAssertGreaterThanOrEqual(first, 2.0 - Self.frame - 1e-6, "\(sidecar.scenes)")
        XCTAssertLessThan(first, 2.5, "\(sidecar.scenes)")
    }
}
