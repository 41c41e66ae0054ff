import XCTest
@testable import PauseCamCore

/// Seeded random schedules fed through `Session` + `Retimer` exactly as the recorder does, with audio and video
/// arriving interleaved at random lags; the invariants of the time model are checked on every output.
final class RetimerPropertyTests: XCTestCase {

    private static func us(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1_000_000) }

    /// A duration in µs drawn log-uniformly between `low` and `high`.
    private static func logUniform(_ low: Int64, _ high: Int64, _ rng: inout SeededGenerator) -> Int64 {
        let x = Double.random(in: log(Double(low))...log(Double(high)), using: &rng)
        return Swift.max(low, Swift.min(high, Int64(exp(x))))
    }

    private enum Event {
        case command(Session.Command, MediaTime)
        case video(MediaTime)
        case audio(AudioChunk)
    }

    func testSeededRandomSchedules() {
        // 600 (was 1000): OutputClockPropertyTests shares the time budget, feeding the same invariants through the
        // output clock and the recorder.
        let schedules = 600
        var failures = 0
        for seed in 1...UInt64(schedules) where failures < 3 {
            if !runSchedule(seed: seed) { failures += 1 }
        }
    }

    /// One schedule; returns false (after XCTFail with the seed) when an invariant broke.
    private func runSchedule(seed: UInt64) -> Bool {
        var rng = SeededGenerator(state: seed)
        var problems: [String] = []
        func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
            if problems.count < 5 && !condition() { problems.append(message()) }
        }

        // The rig: 30 or 29.97 fps, 44.1 or 48 kHz in chunks of 1024 or 441 samples.
        let ntsc = Bool.random(using: &rng)
        let frameDuration = ntsc ? MediaTime(value: 1001, timescale: 30000) : MediaTime(value: 1, timescale: 30)
        let rate: Int32 = Bool.random(using: &rng) ? 44100 : 48000
        let chunkSize = Bool.random(using: &rng) ? 1024 : 441
        let chunkDuration = MediaTime(value: Int64(chunkSize), timescale: rate)

        // Capture clocks in µs; video and audio start about a second before `record`.
        let recordUs = 1_000_000_000 + Int64.random(in: 0..<1_000_000, using: &rng)
        let videoBase = RetimerPropertyTests.us(recordUs - 1_000_000 - Int64.random(in: 0..<40_000, using: &rng))
        let audioBase = Int.random(in: 0..<10, using: &rng) == 0
            ? videoBase : RetimerPropertyTests.us(recordUs - 1_000_000 - Int64.random(in: 0..<40_000, using: &rng))
        let frame = { (k: Int64) in videoBase + frameDuration.multipliedTrapping(k) }
        let framesBefore = { (time: MediaTime) -> Int64 in   // index of the first frame at or after `time`
            let ticks = try! (time - videoBase).rescaled(to: frameDuration.timescale, rounding: .up).value
            return Swift.max(0, (ticks + frameDuration.value - 1) / frameDuration.value)
        }
        let chunkIndex = { (time: MediaTime) -> Int64 in   // index of the chunk containing `time`
            let samples = try! (time - audioBase).rescaled(to: rate, rounding: .down).value
            return Swift.max(0, samples / Int64(chunkSize))
        }

        // The schedule: record, then up to 100 pauses of 1 ms to 10 min between recorded spans of 1 ms to 1 s.
        // Command times are µs, sometimes exactly on a frame.
        let pauses = Int.random(in: 0...100, using: &rng)
        var commands: [(Session.Command, MediaTime)] = []
        var now = RetimerPropertyTests.us(recordUs)
        func snap(_ time: MediaTime) -> MediaTime {
            Int.random(in: 0..<8, using: &rng) == 0 ? frame(framesBefore(time)) : time
        }
        commands.append((.record(name: nil), snap(now)))
        for i in 0...pauses {
            now = commands.last!.1 + RetimerPropertyTests.us(RetimerPropertyTests.logUniform(1_000, 1_000_000, &rng))
            if i == pauses {
                if Bool.random(using: &rng) {
                    commands.append((.stop, snap(now)))
                } else {
                    commands.append((.pause, snap(now)))
                    commands.append((.stop, commands.last!.1 + RetimerPropertyTests.us(Int64.random(in: 1_000...500_000, using: &rng))))
                }
                break
            }
            commands.append((.pause, snap(now)))
            let gap = RetimerPropertyTests.logUniform(1_000, 600_000_000, &rng)
            commands.append((.resume(name: nil), snap(commands.last!.1 + RetimerPropertyTests.us(gap))))
        }

        // Samples are fed in windows around the recorded spans (±70 ms: at least two frames); deep inside long pauses nothing is fed,
        // as those samples would be dropped anyway.
        let margin = RetimerPropertyTests.us(70_000)
        var windows: [(MediaTime, MediaTime)] = [(videoBase, commands[0].1 + margin)]
        var spanStart = commands[0].1
        for (command, time) in commands.dropFirst() {
            switch command {
            case .resume: spanStart = time
            case .pause, .stop:
                let window = (spanStart - margin, time + margin)
                if window.0 <= windows[windows.count - 1].1 {
                    windows[windows.count - 1].1 = MediaTime.max(windows[windows.count - 1].1, window.1)
                } else {
                    windows.append(window)
                }
            default: break
            }
        }
        var videoFeed: [(arrival: MediaTime, pts: MediaTime)] = []
        var audioFeed: [(arrival: MediaTime, chunk: AudioChunk)] = []
        for (low, high) in windows {
            var k = framesBefore(low)
            while frame(k) <= high {
                let arrival = frame(k) + RetimerPropertyTests.us(Int64.random(in: 0...20_000, using: &rng))
                videoFeed.append((MediaTime.max(arrival, videoFeed.last?.arrival ?? arrival), frame(k)))
                k += 1
            }
            var j = chunkIndex(low)
            while true {
                let chunk = RetimerHarness.chunk(base: audioBase, rate: rate, first: j * Int64(chunkSize), count: chunkSize)
                if chunk.pts > high { break }
                if audioFeed.last.map({ chunk.pts > $0.chunk.pts }) ?? true {
                    let arrival = chunk.end + RetimerPropertyTests.us(Int64.random(in: 0...100_000, using: &rng))
                    audioFeed.append((MediaTime.max(arrival, audioFeed.last?.arrival ?? arrival), chunk))
                }
                j += 1
            }
        }

        // Feed in arrival order (commands first on ties), as the recorder's serial context would see them.
        var session = Session(frameDuration: frameDuration)
        var retimer = Retimer(frameDuration: frameDuration)
        var frames: [RetimerHarness.AppendedFrame] = []
        var fedFrames: [MediaTime] = []
        var audio: [AudioChunk] = []
        var resumes = 0
        var (c, v, a) = (0, 0, 0)
        while c < commands.count || v < videoFeed.count || a < audioFeed.count {
            let nextCommand = c < commands.count ? commands[c].1 : nil
            let nextVideo = v < videoFeed.count ? videoFeed[v].arrival : nil
            let nextAudio = a < audioFeed.count ? audioFeed[a].arrival : nil
            let earliest = [nextCommand, nextVideo, nextAudio].compactMap { $0 }.min()!
            if nextCommand == earliest {
                let (command, time) = commands[c]
                c += 1
                guard case .success(let actions) = session.handle(command, at: time) else {
                    check(false, "\(command) rejected")
                    continue
                }
                if case .resume = command { resumes += 1 }
                for action in actions {
                    switch action {
                    case .startRetimer(let at): retimer.start(at: at)
                    case .pauseRetimer(let at): retimer.pause(at: at)
                    case .stopRetimer(let at): retimer.stop(at: at)
                    default: break
                    }
                }
            } else if nextVideo == earliest {
                let pts = videoFeed[v].pts
                v += 1
                fedFrames.append(pts)
                if case .append(let fileTime, let starts) = retimer.retimeVideo(pts: pts) {
                    frames.append(.init(pts: pts, fileTime: fileTime, startsSegment: starts))
                    session.videoAppended(capturePTS: pts, fileTime: fileTime, startsSegment: starts)
                }
                audio += retimer.takeAudio()
            } else {
                retimer.retimeAudio(audioFeed[a].chunk)
                a += 1
                audio += retimer.takeAudio()
            }
        }
        retimer.finish()
        audio += retimer.takeAudio()
        session.markFinished()

        // 1. Exactly the frames whose PTS is in a recorded span [start/resume, pause/stop) are kept, and a segment
        //    starts at each kept frame with a start/resume since the previous frame fed.
        var expectedKept: [MediaTime] = []
        var expectedStarts: [MediaTime] = []
        var commandIndex = 0
        var recording = false
        var startPassed = false
        for pts in fedFrames {
            while commandIndex < commands.count, commands[commandIndex].1 <= pts {
                switch commands[commandIndex].0 {
                case .record, .resume: recording = true; startPassed = true
                case .pause, .stop: recording = false
                case .chapter, .retake: break  // never generated here: a chapter changes nothing the retimer sees
                }
                commandIndex += 1
            }
            if recording {
                expectedKept.append(pts)
                if startPassed { expectedStarts.append(pts) }
            }
            startPassed = false
        }
        check(frames.map(\.pts) == expectedKept, "kept \(frames.count) frames, expected \(expectedKept.count)")
        check(frames.filter(\.startsSegment).map(\.pts) == expectedStarts, "segment starts differ")

        // 2. Video: strictly increasing, starts at 0, every seam exactly one frame, one offset per segment.
        var segments: [(start: MediaTime, end: MediaTime, offset: MediaTime, fileStart: MediaTime)] = []
        for (i, f) in frames.enumerated() {
            let offset = f.pts - f.fileTime
            if i == 0 {
                check(f.fileTime == .zero, "first frame at \(f.fileTime)")
            } else {
                check(f.fileTime > frames[i - 1].fileTime, "video not increasing at \(i)")
                if f.startsSegment {
                    check(f.fileTime - frames[i - 1].fileTime == frameDuration, "seam \(f.fileTime - frames[i - 1].fileTime)")
                } else {
                    check(offset == segments[segments.count - 1].offset, "offset changed inside a segment at \(i)")
                }
            }
            if f.startsSegment {
                segments.append((f.pts, f.pts + frameDuration, offset, f.fileTime))
            } else {
                segments[segments.count - 1].end = f.pts + frameDuration
            }
        }

        // 3. Duration: on a regular frame grid every kept frame adds exactly one frame duration, so the movie's
        //    video duration is (kept frames) × (frame duration); each segment differs from its recorded span
        //    [command, command) by less than one frame, because both of its edges snap to the next frame.
        let videoDuration = retimer.videoDuration
        check(videoDuration == (try! frameDuration.multiplied(by: Int64(frames.count))), "duration \(videoDuration)")
        var segmentIndex = 0
        var spanStartTime: MediaTime?
        for (command, time) in commands {
            switch command {
            case .record, .resume: spanStartTime = time
            case .chapter, .retake: continue  // never generated here
            case .pause, .stop:
                guard let begin = spanStartTime else { continue }
                spanStartTime = nil
                guard segmentIndex < segments.count, segments[segmentIndex].start >= begin,
                      segments[segmentIndex].start < time else { continue }   // a span with no frame
                let segment = segments[segmentIndex]
                segmentIndex += 1
                let difference = (segment.end - segment.start) - (time - begin)
                check(difference > MediaTime.zero - frameDuration && difference < frameDuration,
                      "segment \(segmentIndex) differs from its span by \(difference)")
            }
        }
        check(segmentIndex == segments.count, "segments not matched to spans")

        // 4. Audio: pieces strictly increasing; each has its segment's offset exactly (the same as video); the kept
        //    samples are exactly those captured in [segment start, segment end).
        var expectedRanges: [Range<Int64>] = []
        for segment in segments {
            let range = firstSample(atOrAfter: segment.start, base: audioBase, rate: rate)
                ..< firstSample(atOrAfter: segment.end, base: audioBase, rate: rate)
            if let last = expectedRanges.last, last.upperBound == range.lowerBound {
                expectedRanges[expectedRanges.count - 1] = last.lowerBound..<range.upperBound
            } else if !range.isEmpty {
                expectedRanges.append(range)
            }
        }
        let harness = { () -> RetimerHarness in
            var h = RetimerHarness(frameDuration: frameDuration)
            h.audio = audio
            return h
        }()
        let (kept, contiguous) = harness.keptSampleRanges()
        check(contiguous, "a piece's samples are not contiguous")
        check(kept == expectedRanges, "kept samples \(kept.prefix(3)) expected \(expectedRanges.prefix(3))")
        var pieceSegment = 0
        var lastInstant: MediaTime?
        var audioSamples: Int64 = 0
        for piece in audio {
            let sample = MediaTime(value: 1, timescale: rate)
            if let lastInstant { check(piece.pts > lastInstant, "audio not increasing at \(piece.pts)") }
            lastInstant = piece.end - sample
            audioSamples += Int64(piece.frameCount)
            let capture = audioBase + MediaTime(value: RetimerHarness.index(piece, 0), timescale: rate)
            while pieceSegment + 1 < segments.count && segments[pieceSegment + 1].start <= capture { pieceSegment += 1 }
            guard pieceSegment < segments.count else { check(false, "audio without video"); break }
            let segment = segments[pieceSegment]
            check(capture >= segment.start && capture + MediaTime(value: Int64(piece.frameCount - 1), timescale: rate) < segment.end,
                  "piece outside its segment")
            check(capture - piece.pts == segment.offset, "audio offset \(capture - piece.pts) ≠ video \(segment.offset)")
        }
        let audioDuration = MediaTime(value: audioSamples, timescale: rate)
        let drift = audioDuration - videoDuration
        check(MediaTime.max(drift, MediaTime.zero - drift) < MediaTime(value: Int64(segments.count), timescale: rate)
              || segments.isEmpty, "audio \(audioDuration) vs video \(videoDuration): more than a sample per segment")
        check(MediaTime.max(drift, MediaTime.zero - drift) <= chunkDuration, "audio and video differ by more than a chunk")

        // 5. Session: scenes = 1 + resumes, timer = last PTS + one frame = the movie's duration; scenes match segments.
        check(session.scenes.count == 1 + resumes, "\(session.scenes.count) scenes for \(resumes) resumes")
        check(session.timer == (frames.last.map { $0.fileTime + frameDuration } ?? .zero), "timer \(session.timer)")
        check(session.timer == videoDuration, "timer \(session.timer) ≠ duration \(videoDuration)")
        check(session.state == .finished, "state \(session.state)")
        let scenesWithFrames = session.scenes.filter { $0.start != nil }
        check(scenesWithFrames.count == segments.count, "\(scenesWithFrames.count) scenes with frames, \(segments.count) segments")
        for (scene, segment) in zip(scenesWithFrames, segments) {
            check(scene.start == segment.fileStart && scene.end == segment.fileStart + (segment.end - segment.start),
                  "scene \(scene.index) bounds")
            if let pause = session.pauses.first(where: { $0.afterScene == scene.index }) {
                check(pause.at == scene.end, "pause after scene \(scene.index) at \(pause.at), scene ends \(String(describing: scene.end))")
            }
        }
        check(retimer.counters == Retimer.Counters(), "counters \(retimer.counters)")

        if !problems.isEmpty {
            XCTFail("seed \(seed) (\(ntsc ? "29.97" : "30") fps, \(rate) Hz, chunks of \(chunkSize), \(pauses) pauses): "
                    + problems.joined(separator: "; "))
            return false
        }
        return true
    }
}

extension MediaTime {
    /// `self × count`, trapping on overflow: for test grids only.
    fileprivate func multipliedTrapping(_ count: Int64) -> MediaTime { try! multiplied(by: count) }
}
