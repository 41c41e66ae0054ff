import Foundation
import XCTest
@testable import PauseCamCore

/// Seeded random sequences of `pause`, `resume`, `chapter` and `retake` (several often at one instant, the waits
/// between them often zero) fed through `Session` + `Retimer` as the recorder feeds them, with frames arriving a few
/// frames after their capture; the movie the finish would make from them (the `.partial`'s frames less the
/// discarded spans) must agree with the timer, the scenes and the discarded spans.
final class SessionRetakePropertyTests: XCTestCase {
    private let frame = MediaTime(value: 1, timescale: 30)

    func testRandomSequencesWithRetakesKeepTimerScenesAndDiscardedSpansConsistent() {
        let base = UInt64(ProcessInfo.processInfo.environment["PAUSECAM_FUZZ_SEED"] ?? "") ?? 3_400
        var failures = 0
        for seed in base..<base + 2_000 where failures < 3 {
            if let problem = run(seed: seed) {
                failures += 1
                XCTFail("seed \(seed) (PAUSECAM_FUZZ_SEED=\(seed)): \(problem)")
            }
        }
    }

    /// One sequence; the first broken invariant, or nil.
    private func run(seed: UInt64) -> String? {
        var random = SeededGenerator(seed: seed)
        // Command times on a grid of half frames, so some fall on a frame and some between two.
        let half = MediaTime(value: 1, timescale: 60)
        var commands: [(Session.Command, MediaTime)] = [(.record(name: "S1"), .zero)]
        var now = MediaTime.zero
        let steps = Int.random(in: 1...14, using: &random)
        for step in 0..<steps {
            if Int.random(in: 0..<3, using: &random) > 0 {
                now = now + (try! half.multiplied(by: Int64.random(in: 0...40, using: &random)))
            }
            let command: Session.Command
            switch Int.random(in: 0..<4, using: &random) {
            case 0: command = .pause
            case 1: command = .resume(name: "R\(step)")
            case 2: command = .chapter(name: "C\(step)")
            default: command = .retake
            }
            commands.append((command, now))
        }
        now = now + (try! half.multiplied(by: Int64.random(in: 0...40, using: &random)))
        commands.append((.stop, now))
        let lag = try! frame.multiplied(by: Int64.random(in: 0...3, using: &random))

        var session = Session(frameDuration: frame)
        var retimer = Retimer(frameDuration: frame)
        var appended: [MediaTime] = []   // `.partial` file times of the frames the sink got
        var pending = commands[...]
        let lastFrame = Int64((now + lag).seconds * 30) + 4
        var accepted: [String] = []
        for index in 0...lastFrame {
            let capture = MediaTime(value: index, timescale: 30)
            let arrival = capture + lag
            while let (command, time) = pending.first, time <= arrival {
                pending = pending.dropFirst()
                guard case .success(let actions) = session.handle(command, at: time) else { continue }
                accepted.append("\(command)@\(time.seconds)")
                for action in actions {
                    switch action {
                    case .startRetimer(let t): retimer.start(at: t)
                    case .pauseRetimer(let t): retimer.pause(at: t)
                    case .stopRetimer(let t): retimer.stop(at: t)
                    default: break
                    }
                }
            }
            if case .append(let fileTime, let startsSegment) = retimer.retimeVideo(pts: capture) {
                appended.append(fileTime)
                session.videoAppended(capturePTS: capture, fileTime: fileTime, startsSegment: startsSegment)
            }
        }
        retimer.finish()
        let story = accepted.joined(separator: ", ")

        // The movie: every appended frame outside the discarded spans, moved back by the spans before it.
        let spans = session.discardedSpans
        for (earlier, later) in zip(spans, spans.dropFirst()) where later.lowerBound < earlier.upperBound {
            return "discarded spans overlap: \(spans) [\(story)]"
        }
        let kept = appended.filter { time in !spans.contains { $0.contains(time) } }
        for span in spans where !appended.contains(span.lowerBound) {
            return "a discarded span \(span) does not begin on a frame [\(story)]"
        }
        let movieDuration = try! frame.multiplied(by: Int64(kept.count))
        if session.timer != movieDuration {
            return "timer \(session.timer.seconds) s, the movie keeps \(kept.count) frames [\(story)]"
        }
        let totalDiscarded = spans.reduce(MediaTime.zero) { $0 + ($1.upperBound - $1.lowerBound) }
        if retimer.videoDuration - totalDiscarded != movieDuration {
            return ".partial \(retimer.videoDuration.seconds) s less \(totalDiscarded.seconds) s discarded ≠ "
                + "\(movieDuration.seconds) s [\(story)]"
        }
        for (position, time) in kept.enumerated() {
            guard session.movieTime(ofFileTime: time) == (try! frame.multiplied(by: Int64(position))) else {
                return "frame at \(time.seconds) s of the .partial is not at movie time \(position)/30 [\(story)]"
            }
        }
        // Scenes with frames lie edge to edge from 0 to the timer, as the chapters and the sidecar show them.
        var end = MediaTime.zero
        for group in MovieScenes.groups(of: session.scenes) {
            let scene = session.scenes[group.kept]
            guard scene.start == end, let sceneEnd = scene.end, sceneEnd > end else {
                return "scene \(scene.index) spans \(String(describing: scene.start))–\(String(describing: scene.end)),"
                    + " expected to start at \(end.seconds) s [\(story)]"
            }
            end = sceneEnd
        }
        if end != session.timer { return "the scenes end at \(end.seconds) s, the timer at \(session.timer.seconds) s [\(story)]" }
        return nil
    }
}
