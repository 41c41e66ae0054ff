import Foundation
import PauseCamCore
import XCTest

/// Seeded random scripts of `record`, `pause`, `resume`, `chapter`, `retake`, `wait` and `stop` (commands often
/// back to back at one instant) run through the binary on the simulated clock; every movie is checked with ffprobe
/// against its sidecar and against the script: the picture lasts as long as the movie says and as long as the
/// script recorded less what it took again, every chapter lies inside the picture and follows the one before, and
/// the sidecar's scenes lie edge to edge and add up to the movie. A failure prints its seed;
/// `PAUSECAM_FUZZ_SEED=N swift test --skip-build --filter TimelinePropertyEndToEndTests` starts at that seed.
final class TimelinePropertyEndToEndTests: XCTestCase {
    private let sequences: UInt64 = 16
    private let frame = 1.0 / 30

    func testRandomScriptsWithRetakesMakeMoviesWhosePictureChaptersAndSidecarAgree() throws {
        let base = UInt64(ProcessInfo.processInfo.environment["PAUSECAM_FUZZ_SEED"] ?? "") ?? 340
        var failures = 0
        for seed in base..<base + sequences where failures < 2 {
            let script = Self.script(seed: seed)
            let problems = try check(script, seed: seed)
            if !problems.isEmpty {
                failures += 1
                XCTFail("seed \(seed) (PAUSECAM_FUZZ_SEED=\(seed)): \(problems.joined(separator: "; "))\n"
                        + "script: \(script.steps.joined(separator: ", "))")
            }
        }
    }

    /// A script and the movie length it should make: what it recorded less what it took again.
    struct Script {
        var steps: [String] = []
        /// In frames (every wait is a whole number of frames).
        var expectedFrames = 0
    }

    /// One clip: `record`, 3 to 12 random commands (only those the state accepts, so the script runs to the end),
    /// then a resume if paused, a last wait so the clip keeps a frame, and `stop`.
    static func script(seed: UInt64) -> Script {
        var random = SplitMix64(seed: seed)
        var script = Script(steps: ["record: S1"])
        var now = 0, segmentStart = 0, takeStart = 0, recorded = 0, discarded = 0
        var paused = false
        func wait(_ frames: Int) {
            script.steps.append("wait: \(String(format: "%.1f", Double(frames) / 30))s")
            now += frames
        }
        for step in 0..<Int.random(in: 3...12, using: &random) {
            let choice = Int.random(in: 0..<6, using: &random)
            if choice < 2 {
                wait(3 * Int.random(in: 1...10, using: &random))
            } else if paused {
                script.steps.append("resume: R\(step)")
                paused = false
                segmentStart = now
                takeStart = now
            } else if choice == 2 {
                script.steps.append("pause")
                paused = true
                recorded += now - segmentStart
            } else if choice == 3 {
                script.steps.append("chapter: C\(step)")
                takeStart = now
            } else {
                script.steps.append("retake")
                discarded += now - takeStart
                takeStart = now
            }
        }
        if paused {
            script.steps.append("resume: last")
            segmentStart = now
        }
        wait(3 * Int.random(in: 1...10, using: &random))
        script.steps.append("stop")
        recorded += now - segmentStart
        script.expectedFrames = recorded - discarded
        return script
    }

    /// Runs `script` and returns what is wrong with its movie.
    private func check(_ script: Script, seed: UInt64) throws -> [String] {
        let take = try SoundRig(audio: [], steps: script.steps).record("timeline-\(seed)")
        var problems: [String] = []
        func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { problems.append(message()) }
        }
        let probe = take.probe
        let format = try probe.duration()
        guard let video = Double(try probe.streams().first { $0.codecType == "video" }?.duration ?? "") else {
            return ["no video stream"]
        }
        let expected = Double(script.expectedFrames) * frame
        expect(abs(video - format) < frame, "picture \(video) s, movie \(format) s")
        expect(abs(video - expected) < frame / 2, "picture \(video) s, the script recorded \(expected) s")

        let chapters = try probe.chapters()
        expect(!chapters.isEmpty, "no chapter")
        var chapterEnd = 0.0
        for chapter in chapters {
            let end = Double(chapter.endTime) ?? -1
            expect(abs(chapter.start - chapterEnd) < 0.001,
                   "chapter \(chapter.title ?? "?") starts at \(chapter.start) s, the one before ends at \(chapterEnd) s")
            expect(end > chapter.start && end <= video + 0.001,
                   "chapter \(chapter.title ?? "?") \(chapter.start)–\(end) s lies outside the picture (\(video) s)")
            chapterEnd = end
        }
        expect(abs(chapterEnd - video) < 0.001, "the chapters end at \(chapterEnd) s, the picture at \(video) s")

        let sidecar = take.sidecar
        expect(sidecar.scenes.map(\.title) == chapters.map { $0.title ?? "" },
               "sidecar scenes \(sidecar.scenes.map(\.title)), chapters \(chapters.map { $0.title ?? "" })")
        var sceneEnd = 0.0
        for scene in sidecar.scenes {
            expect(abs(scene.start - sceneEnd) < 1e-6,
                   "sidecar scene \(scene.title) starts at \(scene.start) s, the one before ends at \(sceneEnd) s")
            sceneEnd = scene.start + scene.duration
        }
        expect(abs(sceneEnd - sidecar.duration) < 1e-6, "the sidecar's scenes end at \(sceneEnd) s, its duration "
               + "is \(sidecar.duration) s")
        expect(abs(sidecar.duration - video) < frame / 2, "sidecar \(sidecar.duration) s, picture \(video) s")
        return problems
    }
}
