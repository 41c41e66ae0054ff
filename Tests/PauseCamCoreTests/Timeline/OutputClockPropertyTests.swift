import XCTest
@testable import PauseCamCore

/// Seeded random schedules fed through a real `Recorder` (its `OutputClock`, `Session` and `Retimer`) the way the
/// rig controller feeds it: lenses at 15, 25, 30 and 60 fps with ±3 ms capture jitter, switched mid-segment, into
/// 25, 29.97 and 30 fps outputs; frames and audio arriving late and interleaved at random lags; the hold ticks;
/// pauses and resumes at random times, on frames, within one frame of them, and of zero length. Every invariant of
/// the time model (`RetimerPropertyTests`) is checked on what reaches the sink, plus the output clock's: a constant
/// frame rate in the file and the nearest picture in every slot.
///
/// `PROPS_SEED=N` replays one seed and prints its events and slots; `PROPS_SEEDS=N` runs seeds 1…N (300 by default,
/// to keep the debug-build run under half a minute).
final class OutputClockPropertyTests: XCTestCase {

    /// A sink that keeps each frame's slot time, file time, keyframe flag, lens and picture (a frame number
    /// written into its luma plane), and the audio.
    /// Unchecked Sendable: a fake driven by one thread at a time (the test's, or the worker it hands the clip to).
    private final class GridSink: MovieSink, @unchecked Sendable {
        struct Appended { var slot: MediaTime; var fileTime: MediaTime; var keyframe: Bool; var lens: String; var id: UInt32 }
        var video: [Appended] = []
        var audio: [AudioChunk] = []
        var moviePath: String { "/clip.mov" }
        var partialPath: String { "/clip.mov.partial" }
        var droppedVideoFrames: Int { 0 }
        func appendVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws {
            video.append(Appended(slot: frame.pts, fileTime: fileTime, keyframe: keyframe, lens: frame.lens,
                                  id: OutputClockPropertyTests.id(of: frame)))
        }
        func setThumbnail(_ frame: VideoFrame) {}
        func appendAudio(_ chunk: AudioChunk) throws { audio.append(chunk) }
        func finish(chapters: [Chapter]) throws -> MovieSummary {
            MovieSummary(path: moviePath, videoFramesWritten: video.count, videoFramesDropped: 0,
                         audioSamplesWritten: audio.reduce(0) { $0 + $1.frameCount })
        }
        func abort() {}
    }

    /// A store that forgets: the sidecar is not what this test checks.
    private final class NullStore: SidecarStore {
        func write(_ data: Data, to path: String) throws {}
    }

    private static func us(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1_000_000) }

    private static func logUniform(_ low: Int64, _ high: Int64, _ rng: inout SeededGenerator) -> Int64 {
        let x = Double.random(in: log(Double(low))...log(Double(high)), using: &rng)
        return Swift.max(low, Swift.min(high, Int64(exp(x))))
    }

    /// A 2×2 frame whose luma plane carries `id` (lens index in the top 4 bits, frame number below).
    private static func frame(id: UInt32, pts: MediaTime, lens: String) -> VideoFrame {
        let bytes = [UInt8(id >> 24), UInt8(truncatingIfNeeded: id >> 16), UInt8(truncatingIfNeeded: id >> 8),
                     UInt8(truncatingIfNeeded: id)]
        return VideoFrame(pts: pts, width: 2, height: 2, format: .yuv420p,
                          planes: [Plane(bytes: bytes, stride: 2), Plane(bytes: [0], stride: 1),
                                   Plane(bytes: [0], stride: 1)], lens: lens)
    }

    fileprivate static func id(of frame: VideoFrame) -> UInt32 {
        frame.planes[0].bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// One camera: its rate, the capture time of its frame 0 (µs), its delivery latency (µs) and a jitter seed.
    private struct Lens {
        var index: Int
        var rate: FrameRate
        var phase: Int64
        var latency: Int64
        var jitterSeed: UInt64
        var name: String { "lens\(index)" }
        var periodUs: Double { 1_000_000 * Double(rate.denominator) / Double(rate.numerator) }

        /// Capture stamp of frame `k` in µs: the nominal time plus ±3 ms of jitter that depends on `k` only.
        func stampUs(_ k: Int64) -> Int64 {
            var rng = SeededGenerator(state: jitterSeed ^ UInt64(bitPattern: k) &* 0x2545_F491_4F6C_DD1D)
            let nominal = phase + k * 1_000_000 * Int64(rate.denominator) / Int64(rate.numerator)
            return nominal + (k == 0 ? 0 : Int64.random(in: -3000...3000, using: &rng))
        }

        /// The first frame whose nominal time is at or after `us` (jitter moves it by 3 ms at most).
        func firstFrame(atOrAfter us: Int64) -> Int64 {
            Swift.max(0, Int64(((Double(us - phase)) / periodUs).rounded(.up)))
        }
    }

    private enum Event {
        case command(Session.Command, MediaTime)
        case video(VideoFrame)
        case audio(AudioChunk)
        case hold(before: MediaTime)
    }

    func testSeededSchedulesThroughTheOutputClock() {
        var failures = 0
        let only = ProcessInfo.processInfo.environment["PROPS_SEED"].flatMap(UInt64.init)
        let count = ProcessInfo.processInfo.environment["PROPS_SEEDS"].flatMap(UInt64.init) ?? 300
        for seed in 1...count where failures < 3 && (only.map { $0 == seed } ?? true) {
            if !runSchedule(seed: seed) { failures += 1 }
        }
    }

    // swiftlint:disable:next function_body_length cyclomatic_complexity
    private func runSchedule(seed: UInt64) -> Bool {
        var rng = SeededGenerator(state: seed)
        var problems: [String] = []
        func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
            if problems.count < 5 && !condition() { problems.append(message()) }
        }
        // A third of the schedules stamp in nanoseconds, as V4L2 and ALSA do (`MediaTime.timespec`), at a phase
        // that is no whole microsecond. (Drawn from its own generator, so the other draws of a seed stay the same.)
        var clockRng = SeededGenerator(state: seed ^ 0xC10C_C10C)
        let nanosecondClock = Int.random(in: 0..<3, using: &clockRng) == 0
        let nanosecondPhase = Int64.random(in: 1..<1000, using: &clockRng)
        let us = { (value: Int64) -> MediaTime in
            nanosecondClock ? MediaTime(value: value * 1000 + nanosecondPhase, timescale: 1_000_000_000)
                : OutputClockPropertyTests.us(value)
        }
        // Exact on a microsecond clock. On a nanosecond clock a slot time (anchor + n × 1/30 s) is rounded to the
        // nanosecond (3·10⁹ does not fit a timescale), so file times may be off by a few nanoseconds, never more.
        func same(_ a: MediaTime, _ b: MediaTime) -> Bool {
            guard nanosecondClock else { return a == b }
            let difference = a - b
            return MediaTime.max(difference, .zero - difference) <= MediaTime(value: 100, timescale: 1_000_000_000)
        }

        // The rig: the output rate, the microphone, and one to three lenses of any rate.
        let output = [FrameRate(25), FrameRate(30000, 1001), FrameRate(30)].randomElement(using: &rng)!
        let d = output.frameDuration
        let half = MediaTime(value: d.value, timescale: d.timescale * 2)
        let rate: Int32 = Bool.random(using: &rng) ? 44100 : 48000
        let chunkSize = Bool.random(using: &rng) ? 1024 : 441
        // Capture clocks in µs, from a thousand seconds to three years of uptime.
        let recordUs = [1_000_000_000, 1_000_000_000_000, 100_000_000_000_000].randomElement(using: &rng)!
            + Int64.random(in: 0..<1_000_000, using: &rng)
        let lenses = (0..<Int.random(in: 1...3, using: &rng)).map { index in
            Lens(index: index, rate: [FrameRate(15), FrameRate(25), FrameRate(30), FrameRate(60)].randomElement(using: &rng)!,
                 phase: recordUs - 1_000_000 - Int64.random(in: 0..<70_000, using: &rng),
                 latency: Int64.random(in: 0...60_000, using: &rng), jitterSeed: rng.next())
        }
        let audioBase = us(recordUs - 1_000_000 - Int64.random(in: 0..<40_000, using: &rng))
        let chunkIndex = { (time: MediaTime) -> Int64 in
            Swift.max(0, try! (time - audioBase).rescaled(to: rate, rounding: .down).value / Int64(chunkSize))
        }

        // Lens switches (µs, in order): the active lens at a time is the last one switched to at or before it.
        var switches: [(at: Int64, lens: Int)] = [(Int64.min, 0)]
        func activeLens(_ at: Int64) -> Int { switches.last { $0.at <= at }!.lens }

        // Commands: record, then pauses of 0 to 10 min between recorded spans of 1 ms to 1 s, with lens switches
        // inside spans. A command time is sometimes exactly on a frame of the active lens, 1 µs either side of
        // one, or anywhere within half an output frame of one.
        var commands: [(Session.Command, Int64)] = []
        func snap(_ time: Int64) -> Int64 {
            let lens = lenses[activeLens(time)]
            let onFrame = lens.stampUs(lens.firstFrame(atOrAfter: time))
            let halfUs = Int64(500_000 * Double(d.value) / Double(d.timescale))
            let snapped: Int64
            switch Int.random(in: 0..<8, using: &rng) {
            case 0, 1: snapped = onFrame
            case 2: snapped = onFrame - 1
            case 3: snapped = onFrame + 1
            case 4: snapped = onFrame + Int64.random(in: -halfUs...halfUs, using: &rng)
            default: snapped = time
            }
            return Swift.max(snapped, commands.last?.1 ?? snapped)
        }
        commands.append((.record(name: nil), snap(recordUs)))
        let pauses = Int.random(in: 0...30, using: &rng)
        for i in 0...pauses {
            let spanStart = commands.last!.1
            let span = OutputClockPropertyTests.logUniform(1_000, 1_000_000, &rng)
            if lenses.count > 1 {
                for _ in 0..<Int.random(in: 0...2, using: &rng) {
                    let at = spanStart + Int64.random(in: 0...span, using: &rng)
                    if at > switches.last!.at {
                        switches.append((at, (activeLens(at) + Int.random(in: 1..<lenses.count, using: &rng)) % lenses.count))
                    }
                }
            }
            let pauseAt = snap(spanStart + span)
            if i == pauses {
                if Bool.random(using: &rng) {
                    commands.append((.stop, pauseAt))
                } else {
                    commands.append((.pause, pauseAt))
                    commands.append((.stop, pauseAt + Int64.random(in: 1_000...500_000, using: &rng)))
                }
                break
            }
            commands.append((.pause, pauseAt))
            let gap = Int.random(in: 0..<8, using: &rng) == 0
                ? 0 : OutputClockPropertyTests.logUniform(1_000, 600_000_000, &rng)
            commands.append((.resume(name: nil), Int.random(in: 0..<8, using: &rng) == 0 ? pauseAt : snap(pauseAt + gap)))
        }

        // Samples are fed in windows around the recorded spans (±150 ms: every slot of a span is decided by a frame
        // of its own window); deep inside long pauses nothing is fed, as nothing there is kept.
        let margin: Int64 = 150_000
        var windows: [(Int64, Int64)] = [(lenses.map(\.phase).min()!, commands[0].1 + margin)]
        var spanStart = commands[0].1
        for (command, time) in commands.dropFirst() {
            switch command {
            case .resume: spanStart = time
            case .pause, .stop:
                let window = (spanStart - margin, time + margin)
                if window.0 <= windows[windows.count - 1].1 {
                    windows[windows.count - 1].1 = Swift.max(windows[windows.count - 1].1, window.1)
                } else {
                    windows.append(window)
                }
            default: break
            }
        }
        // Arrival times (µs) and the events; per source, arrivals keep capture order.
        var events: [(arrival: Int64, order: Int, event: Event)] = commands.map { ($0.1, 0, .command($0.0, us($0.1))) }
        var lastVideoArrival = [Int64](repeating: .min, count: lenses.count)
        var lastAudioArrival = Int64.min
        var nextChunk: Int64 = 0
        for (low, high) in windows {
            for lens in lenses {
                var lastArrival = lastVideoArrival[lens.index]
                defer { lastVideoArrival[lens.index] = lastArrival }
                var k = lens.firstFrame(atOrAfter: low)
                while true {
                    let stamp = lens.stampUs(k)
                    if stamp > high { break }
                    if stamp >= low, activeLens(stamp) == lens.index {
                        let arrival = Swift.max(lastArrival, stamp + lens.latency + Int64.random(in: 0...20_000, using: &rng))
                        lastArrival = arrival
                        let id = UInt32(lens.index) << 28 | UInt32(k)
                        events.append((arrival, 1, .video(OutputClockPropertyTests.frame(id: id, pts: us(stamp), lens: lens.name))))
                    }
                    k += 1
                }
            }
            var j = Swift.max(nextChunk, chunkIndex(us(low)))
            while true {
                let chunk = RetimerHarness.chunk(base: audioBase, rate: rate, first: j * Int64(chunkSize), count: chunkSize)
                if chunk.pts > us(high) { break }
                let endUs = try! chunk.end.rescaled(to: 1_000_000, rounding: .up).value
                let arrival = Swift.max(lastAudioArrival, endUs + Int64.random(in: 0...100_000, using: &rng))
                lastAudioArrival = arrival
                events.append((arrival, 1, .audio(chunk)))
                j += 1
            }
            nextChunk = j
            // The rig controller's hold ticks, every 100 ms: slots older than half a second get the last picture.
            var tick = low
            while tick <= high + 600_000 {
                events.append((tick, 2, .hold(before: us(tick - 500_000))))
                tick += 100_000
            }
        }
        events.sort { ($0.arrival, $0.order) < ($1.arrival, $1.order) }

        // Feed the recorder.
        let sink = GridSink()
        let settings = MovieSettings(width: 2, height: 2, rate: output,
                                     // Samples carry their own index, so no fade may touch them (the declicker
                                     // has its own tests).
                                     audio: MovieSettings.AudioSettings(sampleRate: rate, channels: 2, declick: false))
        let recorder = Recorder(description: Recorder.Description(rigName: "props", settings: settings, devices: [],
                                                                  sidecarPath: "/clip.json", started: "now"),
                                sink: sink, store: NullStore())
        var offered: [VideoFrame] = []
        var resumes = 0
        for (_, _, event) in events {
            switch event {
            case .command(let command, let time):
                if case .failure(let rejection) = recorder.handle(command, at: time) {
                    check(false, "\(command) rejected: \(rejection)")
                }
                if case .resume = command { resumes += 1 }
            case .video(let frame):
                offered.append(frame)
                recorder.appendVideo(frame)
            case .audio(let chunk):
                recorder.appendAudio(chunk)
            case .hold(let before):
                if recorder.session.state == .recording || recorder.session.state == .paused {
                    recorder.holdVideo(before: before)
                }
            }
        }
        _ = try? recorder.finish(stoppedAt: "later")

        // The model. The output clock takes a frame newer than every frame before it; a segment's grid is anchored
        // at the first frame taken at or after its start/resume, and keeps its slots before the next pause/stop.
        var accepted: [VideoFrame] = []
        for frame in offered where accepted.last.map({ frame.pts > $0.pts }) ?? true { accepted.append(frame) }
        func firstAccepted(atOrAfter time: MediaTime) -> Int {   // binary search: `accepted` is in capture order
            var (low, high) = (0, accepted.count)
            while low < high {
                let mid = (low + high) / 2
                if accepted[mid].pts < time { low = mid + 1 } else { high = mid }
            }
            return low
        }
        struct Segment { var anchor: MediaTime; var slots: [MediaTime]; var firstIndex: Int; var nextRestart: MediaTime? }
        var segments: [Segment] = []
        var expectedSlots: [MediaTime] = []
        var spanBegin: MediaTime?
        for (index, (command, time)) in commands.enumerated() {
            switch command {
            case .record, .resume: spanBegin = us(time)
            case .chapter, .retake: continue  // never generated here: a chapter moves no edge of the output grid
            case .pause, .stop:
                let nextRestart = commands[(index + 1)...].first { if case .resume = $0.0 { true } else { false } }
                    .map { us($0.1) }
                guard let begin = spanBegin else { continue }
                spanBegin = nil
                let first = firstAccepted(atOrAfter: begin)
                guard first < accepted.count, case let anchor = accepted[first].pts, anchor < us(time) else { continue }
                var slots: [MediaTime] = []
                var slot = anchor
                while slot < us(time) {
                    slots.append(slot)
                    slot = anchor + (try! d.multiplied(by: Int64(slots.count)))
                }
                segments.append(Segment(anchor: anchor, slots: slots, firstIndex: expectedSlots.count, nextRestart: nextRestart))
                // The segment starts at the first frame of its span (at most a lens period and the jitter after it,
                // or, just after a switch, the new lens's first frame when it overtook the old lens's last one:
                // their latencies differ by up to 80 ms) and ends after the last slot before the pause (less than a
                // frame after it).
                let difference = (slot - anchor) - (us(time) - begin)
                let slowest = lenses.map { $0.rate.frameDuration }.max()! + us(lenses.count > 1 ? 86_000 : 6_000)
                check(difference < d && difference > MediaTime.zero - slowest - d,
                      "segment \(segments.count) differs from its span by \(difference)")
                expectedSlots += slots
            }
        }

        // 1. Video: exactly the expected slots, at file times 0, d, 2d… (constant rate, no hole, no duplicate:
        //    so every seam is exactly one frame and the first frame is at 0).
        let video = sink.video
        check(video.map(\.slot) == expectedSlots,
              "kept \(video.count) slots, expected \(expectedSlots.count); first difference at "
              + "\(zip(video.map(\.slot), expectedSlots).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? Swift.min(video.count, expectedSlots.count))")
        for (n, appended) in video.enumerated() where !same(appended.fileTime, try! d.multiplied(by: Int64(n))) {
            check(false, "frame \(n) at file time \(appended.fileTime), not \(n) × \(d)")
            break
        }

        // 2. Each kept slot shows the first frame taken in its window [s − ½, s + ½), or with none there the newest
        //    one of its segment before it (a hold); a lens change or a segment start is a keyframe.
        if video.map(\.slot) == expectedSlots {
            var segmentIndex = 0
            var lastLens: String?
            for (n, appended) in video.enumerated() {
                while segmentIndex + 1 < segments.count && segments[segmentIndex + 1].firstIndex <= n { segmentIndex += 1 }
                let anchor = segments[segmentIndex].anchor
                let s = appended.slot
                // A frame at or after the next resume belongs to the next segment, never to this one's slots.
                let nextRestart = segments[segmentIndex].nextRestart
                func ofSegment(_ frame: VideoFrame) -> Bool {
                    guard frame.pts >= anchor else { return false }
                    guard let nextRestart else { return true }
                    return frame.pts < nextRestart
                }
                let inWindow = firstAccepted(atOrAfter: MediaTime.max(s - half, anchor))
                let expected: VideoFrame?
                if inWindow < accepted.count, accepted[inWindow].pts < s + half, ofSegment(accepted[inWindow]) {
                    expected = accepted[inWindow]
                } else if inWindow > 0, ofSegment(accepted[inWindow - 1]) {
                    expected = accepted[inWindow - 1]
                } else {
                    expected = nil
                }
                check(expected.map(OutputClockPropertyTests.id(of:)) == appended.id,
                      "slot \(n) at \(s) shows \(appended.id), expected \(expected.map { "\($0.lens) at \($0.pts)" } ?? "none")")
                check(appended.lens == expected?.lens, "slot \(n) lens \(appended.lens)")
                if segments[segmentIndex].firstIndex == n || (lastLens != nil && lastLens != appended.lens) {
                    check(appended.keyframe, "slot \(n) (segment start or lens change) is not a keyframe")
                }
                lastLens = appended.lens
            }
        }

        // 3. Audio: the samples kept are exactly those captured in each segment, from the later of its start and
        //    the previous segment's end to just after its last slot; no sample twice; pieces strictly increasing;
        //    each piece has its segment's offset exactly (the same as video).
        var expectedRanges: [Range<Int64>] = []
        var audioStarts: [MediaTime] = []
        var offsets: [MediaTime] = []
        var previousEnd: MediaTime?
        for segment in segments {
            let end = segment.slots.last! + d
            let start = previousEnd.map { MediaTime.max($0, segment.anchor) } ?? segment.anchor
            audioStarts.append(start)
            offsets.append(segment.anchor - (try! d.multiplied(by: Int64(segment.firstIndex))))
            previousEnd = end
            let range = firstSample(atOrAfter: start, base: audioBase, rate: rate)
                ..< firstSample(atOrAfter: end, base: audioBase, rate: rate)
            if let last = expectedRanges.last, last.upperBound == range.lowerBound {
                expectedRanges[expectedRanges.count - 1] = last.lowerBound..<range.upperBound
            } else if !range.isEmpty {
                expectedRanges.append(range)
            }
        }
        var harness = RetimerHarness(frameDuration: d)
        harness.audio = sink.audio
        let (kept, contiguous) = harness.keptSampleRanges()
        check(contiguous, "a piece's samples are not contiguous")
        check(zip(kept, kept.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "a sample written twice")
        // On a nanosecond clock a cut that falls within a nanosecond of a sample instant may round either way.
        let nearlyEqual = kept.count == expectedRanges.count && zip(kept, expectedRanges).allSatisfy {
            abs($0.lowerBound - $1.lowerBound) <= 1 && abs($0.upperBound - $1.upperBound) <= 1
        }
        check(kept == expectedRanges || (nanosecondClock && nearlyEqual),
              "kept samples \(kept.prefix(3)) expected \(expectedRanges.prefix(3)); first difference "
              + "\(zip(kept, expectedRanges).first { $0.0 != $0.1 }.map { "\($0.0) vs \($0.1)" } ?? "in the count")")
        var lastInstant: MediaTime?
        var pieceSegment = 0
        for piece in sink.audio {
            if let lastInstant { check(piece.pts > lastInstant, "audio not increasing at \(piece.pts)") }
            lastInstant = piece.end - MediaTime(value: 1, timescale: rate)
            let capture = audioBase + MediaTime(value: RetimerHarness.index(piece, 0), timescale: rate)
            while pieceSegment + 1 < segments.count && audioStarts[pieceSegment + 1] <= capture { pieceSegment += 1 }
            guard pieceSegment < segments.count else { check(false, "audio without video"); break }
            check(same(capture - piece.pts, offsets[pieceSegment]),
                  "audio offset \(capture - piece.pts) ≠ video \(offsets[pieceSegment])")
        }

        // 4. Durations: the movie is (slots kept) × d, the timer says so, and audio ends within one AAC frame of it.
        let videoDuration = recorder.retimer.videoDuration
        check(same(videoDuration, try! d.multiplied(by: Int64(video.count))), "duration \(videoDuration)")
        if let audioEnd = recorder.retimer.audioFileEnd {
            let gap = videoDuration - audioEnd
            check(MediaTime.max(gap, .zero - gap) <= MediaTime(value: 1024, timescale: rate),
                  "audio ends at \(audioEnd), video at \(videoDuration)")
        }

        // 5. Session: a scene per record/resume; the scenes with frames are the segments, their bounds in file time.
        let session = recorder.session
        check(session.scenes.count == 1 + resumes, "\(session.scenes.count) scenes for \(resumes) resumes")
        check(session.timer == videoDuration, "timer \(session.timer) ≠ duration \(videoDuration)")
        check(session.state == .finished, "state \(session.state)")
        let scenesWithFrames = session.scenes.filter { $0.start != nil }
        check(scenesWithFrames.count == segments.count, "\(scenesWithFrames.count) scenes with frames, \(segments.count) segments")
        for (scene, segment) in zip(scenesWithFrames, segments) {
            let fileStart = try! d.multiplied(by: Int64(segment.firstIndex))
            check(scene.start.map { same($0, fileStart) } == true
                  && scene.end.map { same($0, fileStart + (try! d.multiplied(by: Int64(segment.slots.count)))) } == true,
                  "scene \(scene.index) bounds \(String(describing: scene.start))…\(String(describing: scene.end))")
        }
        check(recorder.retimer.counters == Retimer.Counters(), "counters \(recorder.retimer.counters)")

        if !problems.isEmpty, ProcessInfo.processInfo.environment["PROPS_SEED"] != nil {
            for (arrival, _, event) in events {
                switch event {
                case .command(let c, let t): print("\(arrival) CMD \(c) \(t.seconds)")
                case .video(let f): print("\(arrival) V \(f.lens) \(f.pts.seconds) id \(OutputClockPropertyTests.id(of: f))")
                case .audio: break
                case .hold(let b): print("\(arrival) HOLD \(b.seconds)")
                }
            }
            for (n, v) in video.enumerated() {
                print("OUT \(n) slot \(v.slot.seconds) exp \(n < expectedSlots.count ? expectedSlots[n].seconds : -1) file \(v.fileTime.seconds) \(v.lens) id \(v.id)")
            }
        }
        if !problems.isEmpty {
            XCTFail("seed \(seed) (\(nanosecondClock ? "ns" : "µs") clock, lenses \(lenses.map { "\($0.rate)" }) → \(output) fps, \(rate) Hz, chunks of \(chunkSize), "
                    + "\(pauses) pauses, \(switches.count - 1) switches): " + problems.joined(separator: "; "))
            return false
        }
        return true
    }
}
