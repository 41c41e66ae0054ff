import Foundation
import PauseCamCore
import XCTest

/// `retake` throws the scene being recorded away: the movie goes on from where that scene began, with no chapter
/// and no gap for the discarded take, and the sidecar notes what was discarded.
final class RetakeEndToEndTests: XCTestCase {
    private let lines = ["record A", "wait 2s", "chapter B", "wait 1s", "retake", "wait 1.5s", "stop"]

    func testARetakeOnTheSimulatedClockLeavesTheDiscardedTakeOutOfTheMovie() throws {
        let directory = try ProcessRunner.temporaryDirectory("retake-simulated")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", directory.path,
        ], input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        XCTAssertTrue(result.stdoutText.contains("retake: scene 2 again from 00:00:02"), result.stdoutText)
        try assertRetakenMovie(in: directory, tolerance: 1.0 / 30 + 1e-6)
    }

    func testARetakeOnTheRealClockLeavesTheDiscardedTakeOutOfTheMovie() throws {
        let directory = try ProcessRunner.temporaryDirectory("retake-real")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--output", directory.path,
        ], input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
        try assertRetakenMovie(in: directory, tolerance: 0.25)
    }

    func testRetakeWhileIdleIsRefused() throws {
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated",
            "--output", try ProcessRunner.temporaryDirectory("retake-idle").path,
        ], input: "retake\n")
        XCTAssertTrue((result.stdoutText + result.stderr).contains("not recording; `retake` throws away the scene"),
                      result.stdoutText + result.stderr)
    }

    /// A crash after a retake leaves a `.partial` that still plays: it holds the discarded take (its times only go
    /// forward), and the sidecar says which scene was taken again.
    func testACrashAfterARetakeLeavesAPlayablePartialAndASidecarThatNamesTheRetake() throws {
        let directory = try ProcessRunner.temporaryDirectory("retake-crash")
        let running = try RunningCommand(["shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated",
                                          "--output", directory.path], keepInputOpen: true)
        for line in ["record A", "wait 1s", "chapter B", "wait 1s", "retake", "wait 3s"] { running.send(line) }
        XCTAssertTrue(running.waitFor("waited 00:00:03"), running.stdout + running.stderr)
        let partial = directory.appendingPathComponent("e2e-rig.mov.partial").path
        let sidecarPath = directory.appendingPathComponent("e2e-rig.json")
        // The fragment holding the discarded take is written once the new take's keyframe reached the muxer.
        let deadline = Date().addingTimeInterval(60)
        var duration = 0.0
        while Date() < deadline {
            duration = (try? MediaProbe(path: partial).duration()) ?? 0
            if duration >= 2 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(running.process.processIdentifier, SIGKILL)
        _ = running.waitForExit()
        XCTAssertGreaterThanOrEqual(duration, 2, "the .partial holds scene A and the discarded take")
        XCTAssertEqual(try MediaProbe(path: partial).decodeErrors(), "")
        let sidecar = try Sidecar.decode(Data(contentsOf: sidecarPath))
        XCTAssertFalse(sidecar.complete)
        XCTAssertEqual(sidecar.retakes?.map(\.scene), [2])
        XCTAssertEqual(sidecar.retakes?.first?.discardedDuration ?? -1, 1, accuracy: 1.0 / 30 + 1e-6)
    }

    /// Takes of odd lengths thrown away one after the other: with the audio cut to the exact span, each cut lost or
    /// kept part of an AAC packet and the movie's sound drifted from its picture; cut at whole packets, chosen for
    /// the audio removed so far, sound and picture end within one AAC frame (1024 samples) of each other, and
    /// `samples_written` counts the sound the movie holds, not the sound that was encoded.
    private let retakes = ["record A", "wait 2s", "chapter B", "wait 1.01s", "retake", "wait 0.77s", "retake",
                           "wait 1.13s", "retake", "wait 0.51s", "retake", "wait 2.5s", "stop"]

    func testSeveralRetakesOnTheSimulatedClockKeepSoundAndPictureWithinOneAACFrame() throws {
        try assertSoundFollowsPicture(clock: "simulated")
    }

    func testSeveralRetakesOnTheRealClockKeepSoundAndPictureWithinOneAACFrame() throws {
        try assertSoundFollowsPicture(clock: "real")
    }

    private func assertSoundFollowsPicture(clock: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try ProcessRunner.temporaryDirectory("retakes-\(clock)")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", clock, "--output", directory.path,
        ], input: retakes.joined(separator: "\n") + "\n")
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr, file: file, line: line)
        let probe = MediaProbe(path: directory.appendingPathComponent("e2e-rig.mov").path)
        let streams = try probe.streams()
        let video = try XCTUnwrap(Double(streams.first { $0.codecType == "video" }?.duration ?? ""), file: file, line: line)
        let audio = try XCTUnwrap(Double(streams.first { $0.codecType == "audio" }?.duration ?? ""), file: file, line: line)
        let aacFrame = 1024.0 / 48_000
        XCTAssertEqual(audio, video, accuracy: aacFrame, "sound and picture durations", file: file, line: line)
        XCTAssertLessThanOrEqual(audio, video + 0.001, "the sound ends with the picture", file: file, line: line)
        if clock == "simulated" { XCTAssertEqual(video, 4.5, accuracy: 1e-6, file: file, line: line) }
        // The sound is one unbroken run of whole AAC packets: no packet shortened or stretched at a cut, where a
        // player would play 1024 samples in less or more time and the sound would slide against the picture.
        let packets = try audioPackets(probe.path)
        XCTAssertGreaterThan(packets.count, 100, file: file, line: line)
        for (previous, packet) in zip(packets, packets.dropFirst()) {
            XCTAssertEqual(packet.pts - previous.pts, 1024, "audio packet at \(previous.pts)", file: file, line: line)
        }
        let sidecar = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("e2e-rig.json")))
        XCTAssertEqual(sidecar.retakes?.count, 4, file: file, line: line)
        let decoded = try probe.audioSamples().count
        let written = try XCTUnwrap(sidecar.audio?.samplesWritten, file: file, line: line)
        XCTAssertLessThan(abs(written - decoded), 1024, "samples_written \(written), in the movie \(decoded)",
                          file: file, line: line)
    }

    /// The last AAC packet is padded to 1024 samples; the movie plays only what the picture covers, so the sound
    /// never outlasts it (2.01 s of recording: 61 frames, 2.0333 s; whole packets would end at 2.048 s).
    func testTheSoundEndsWithThePictureWithAndWithoutARetake() throws {
        for (name, lines) in [("plain", ["record A", "wait 2.01s", "stop"]),
                              ("retaken", ["record A", "wait 1s", "chapter B", "wait 0.5s", "retake", "wait 1.01s",
                                           "stop"])] {
            let directory = try ProcessRunner.temporaryDirectory("sound-end-\(name)")
            let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
                "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", directory.path,
            ], input: lines.joined(separator: "\n") + "\n")
            XCTAssertEqual(result.status, 0, result.stdoutText + result.stderr)
            let streams = try MediaProbe(path: directory.appendingPathComponent("e2e-rig.mov").path).streams()
            let video = try XCTUnwrap(Double(streams.first { $0.codecType == "video" }?.duration ?? ""))
            let audio = try XCTUnwrap(Double(streams.first { $0.codecType == "audio" }?.duration ?? ""))
            XCTAssertEqual(video, 61.0 / 30, accuracy: 1e-6, name)
            XCTAssertLessThanOrEqual(audio, video + 0.001, "\(name): the sound ends with the picture")
            XCTAssertGreaterThan(audio, video - 1024.0 / 48_000, "\(name): and not a packet before it")
        }
    }

    /// The movie's audio packets' presentation times, in the stream's time base (1/48000 here).
    private func audioPackets(_ path: String) throws -> [(pts: Int, duration: Int)] {
        let result = try ProcessRunner.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                                "packet=pts,duration", "-of", "csv=p=0", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard let pts = fields.first ?? nil else { return nil }
            return (pts, fields.count > 1 ? fields[1] ?? 0 : 0)
        }
    }

    /// A retake of a scene that got no frame, given right after the `chapter` that follows another retake: the first
    /// retake's discarded take is left out of the timer, the chapters and the sidecar as it is out of the picture,
    /// so the movie is 3 s throughout (A 0–2 s, C 2–3 s; B, retaken and left empty, is no chapter).
    func testARetakeOfAnEmptySceneAfterARetakeKeepsTheTimelineWhole() throws {
        let take = try SoundRig(audio: [], steps: ["record: A", "wait: 2s", "chapter: B", "wait: 1s", "retake",
                                                   "chapter: C", "retake", "wait: 1s", "stop"])
            .record("retake-empty-scene")
        XCTAssertTrue(take.stdout.contains("[script 00:00:03.0 movie 00:00:02.0] retake: retake: scene 3 again"),
                      take.stdout)
        XCTAssertTrue(take.stdout.contains("[script 00:00:04.0 movie 00:00:03.0] stop"), take.stdout)
        let probe = take.probe
        let video = try XCTUnwrap(Double(try probe.streams().first { $0.codecType == "video" }?.duration ?? ""))
        XCTAssertEqual(video, 3, accuracy: 1e-6, "the picture")
        XCTAssertEqual(try probe.duration(), 3, accuracy: 1e-6, "the movie's duration")
        let chapters = try probe.chapters()
        XCTAssertEqual(chapters.map { $0.title ?? "" }, ["A", "C"])
        XCTAssertEqual(chapters.map(\.start), [0, 2])
        XCTAssertEqual(chapters.map { Double($0.endTime) ?? -1 }, [2, 3])
        let sidecar = take.sidecar
        XCTAssertEqual(sidecar.duration, 3, accuracy: 1e-6)
        XCTAssertEqual(sidecar.scenes.map(\.title), ["A", "C"])
        XCTAssertEqual(sidecar.scenes.map(\.start), [0, 2])
        XCTAssertEqual(sidecar.scenes.map(\.duration), [2, 1])
        XCTAssertEqual(sidecar.retakes?.map(\.discardedDuration).reduce(0, +) ?? -1, 1, accuracy: 1e-6)
    }

    /// A `retake` in the first scene throws away everything recorded: a `stop` right after it leaves what a clip
    /// with no frame leaves — no movie, no sidecar, and "nothing was recorded" — not a 0 s movie.
    func testRetakingTheFirstSceneThenStoppingRecordsNothing() throws {
        let directory = try ProcessRunner.temporaryDirectory("retake-everything")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", directory.path,
        ], input: "record A\nwait 1s\nretake\nstop\n")
        XCTAssertTrue((result.stdoutText + result.stderr).contains("nothing was recorded"),
                      result.stdoutText + result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    /// The sidecar written when the thrown-away take began, and its removal, run on the finisher's worker: quitting
    /// waits for both, also on a disk whose writes return late, so nothing of the clip is left behind.
    func testRetakingTheFirstSceneThenQuittingLeavesNothingOnASlowDisk() throws {
        let directory = try ProcessRunner.temporaryDirectory("retake-everything-slow")
        let result = try ProcessRunner.run(BinaryLocator.pausecam.path, [
            "shell", ProcessRunner.rig("e2e.yaml"), "--clock", "simulated", "--output", directory.path,
        ], input: "record A\nwait 1s\nretake\nstop\n", environment: ["PAUSECAM_FAULT_SLOW_SIDECAR_MS": "700"])
        XCTAssertTrue((result.stdoutText + result.stderr).contains("nothing was recorded"),
                      result.stdoutText + result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    private func assertRetakenMovie(in directory: URL, tolerance: Double,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let probe = MediaProbe(path: directory.appendingPathComponent("e2e-rig.mov").path)
        XCTAssertEqual(try probe.duration(), 3.5, accuracy: tolerance, "movie duration", file: file, line: line)
        let chapters = try probe.chapters()
        XCTAssertEqual(chapters.map { $0.title ?? "" }, ["A", "B"], file: file, line: line)
        XCTAssertEqual(chapters.first?.start ?? -1, 0, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(Double(chapters.first?.endTime ?? "") ?? -1, 2, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(chapters.last?.start ?? -1, 2, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(Double(chapters.last?.endTime ?? "") ?? -1, 3.5, accuracy: tolerance, file: file, line: line)
        try probe.assertConstantRate(30, file: file, line: line)
        XCTAssertEqual(try probe.decodeErrors(), "", file: file, line: line)
        XCTAssertEqual(try probe.audioDuration(), try probe.duration(), accuracy: 0.05, "audio follows the cut",
                       file: file, line: line)
        let sidecar = try Sidecar.decode(Data(contentsOf: directory.appendingPathComponent("e2e-rig.json")))
        XCTAssertEqual(sidecar.retakes?.map(\.scene), [2], file: file, line: line)
        XCTAssertEqual(sidecar.retakes?.first?.discardedDuration ?? -1, 1.0, accuracy: tolerance, file: file, line: line)
        XCTAssertEqual(sidecar.scenes.map(\.title), ["A", "B"], file: file, line: line)
        XCTAssertEqual(sidecar.duration, try probe.duration(), accuracy: 1.0 / 30 + 1e-6, file: file, line: line)
        let lenses = sidecar.scenes.last?.lenses ?? []
        XCTAssertEqual(lenses.first?.start ?? -1, 2, accuracy: tolerance, "the new take's lens", file: file, line: line)
        XCTAssertEqual(lenses.map(\.duration).reduce(0, +), sidecar.scenes.last?.duration ?? -1, accuracy: 1e-6,
                       "the discarded take's lens stretch is gone", file: file, line: line)
        let videoFrames = try probe.streams().first { $0.codecType == "video" }?.nbFrames
        XCTAssertEqual(videoFrames, "\(sidecar.video.framesWritten)", "frames written are the movie's", file: file, line: line)
        let text = try String(contentsOf: directory.appendingPathComponent("e2e-rig.json"), encoding: .utf8)
        XCTAssertTrue(text.contains("\"discarded_duration\""), text, file: file, line: line)
    }
}
