import XCTest
@testable import PauseCamCore

/// Tables of the retimer's edge cases: where pauses and resumes fall relative to the frame grid, audio cut at the
/// exact sample around every edge, timescales, late samples and the Int64 extremes.
final class RetimerEdgeCaseTests: XCTestCase {
    private enum Command { case start, pause, stop }

    private struct Case {
        var name: String
        var commands: [(Command, MediaTime)]
        /// Frame indices (of the grid fed) that must be appended, and those that must start a segment.
        var kept: [Int]
        var segmentStarts: [Int]
    }

    private static let base = MediaTime.seconds(100)
    private static let thirtieth = MediaTime(value: 1, timescale: 30)
    private static let rate: Int32 = 48000
    /// Audio starts 100 ms before the first frame, so there is always audio before the movie starts.
    private static let audioBase = base - .milliseconds(100)

    private static func ms(_ value: Int64) -> MediaTime { .milliseconds(value) }

    /// The table, on a 30 fps grid whose frame k is at `grid(k)`.
    private static func cases(grid f: (Int) -> MediaTime) -> [Case] {
        [
            Case(name: "no pause", commands: [(.start, f(0)), (.stop, f(10))], kept: Array(0...9), segmentStarts: [0]),
            Case(name: "record before the first frame", commands: [(.start, f(0) - ms(5)), (.stop, f(10))],
                 kept: Array(0...9), segmentStarts: [0]),
            Case(name: "record between frames", commands: [(.start, f(2) + ms(10)), (.stop, f(10))],
                 kept: Array(3...9), segmentStarts: [3]),
            Case(name: "pause and resume on frame boundaries",
                 commands: [(.start, f(0)), (.pause, f(5)), (.start, f(10)), (.stop, f(15))],
                 kept: Array(0...4) + Array(10...14), segmentStarts: [0, 10]),
            Case(name: "pause and resume between frames",
                 commands: [(.start, f(0)), (.pause, f(5) + ms(10)), (.start, f(10) + ms(10)), (.stop, f(15) + ms(10))],
                 kept: Array(0...5) + Array(11...15), segmentStarts: [0, 11]),
            Case(name: "zero-length pause on a frame boundary",
                 commands: [(.start, f(0)), (.pause, f(5)), (.start, f(5)), (.stop, f(10))],
                 kept: Array(0...9), segmentStarts: [0, 5]),
            Case(name: "zero-length pause between frames",
                 commands: [(.start, f(0)), (.pause, f(5) + ms(10)), (.start, f(5) + ms(10)), (.stop, f(10))],
                 kept: Array(0...9), segmentStarts: [0, 6]),
            Case(name: "resume within one frame, no frame in the gap",
                 commands: [(.start, f(0)), (.pause, f(5) + ms(5)), (.start, f(5) + ms(20)), (.stop, f(10))],
                 kept: Array(0...9), segmentStarts: [0, 6]),
            Case(name: "resume within one frame, one frame in the gap",
                 commands: [(.start, f(0)), (.pause, f(5) - ms(1)), (.start, f(5) + ms(1)), (.stop, f(10))],
                 kept: Array(0...4) + Array(6...9), segmentStarts: [0, 6]),
            Case(name: "pause and resume one frame apart, twice",
                 commands: [(.start, f(0)), (.pause, f(2)), (.start, f(3)), (.pause, f(4)), (.start, f(5)), (.stop, f(7))],
                 kept: [0, 1, 3, 5, 6], segmentStarts: [0, 3, 5]),
            Case(name: "pause before the first video frame",
                 commands: [(.start, f(0) - ms(50)), (.pause, f(0) - ms(20)), (.start, f(3)), (.stop, f(8))],
                 kept: Array(3...7), segmentStarts: [3]),
            Case(name: "record and pause at the same instant",
                 commands: [(.start, f(2)), (.pause, f(2)), (.start, f(4)), (.stop, f(6))],
                 kept: [4, 5], segmentStarts: [4]),
            Case(name: "stop while paused",
                 commands: [(.start, f(0)), (.pause, f(3)), (.stop, f(8))], kept: [0, 1, 2], segmentStarts: [0]),
            Case(name: "stop before any frame", commands: [(.start, f(0) - ms(50)), (.stop, f(0) - ms(10))],
                 kept: [], segmentStarts: []),
            Case(name: "stop on the last frame", commands: [(.start, f(0)), (.stop, f(19))],
                 kept: Array(0...18), segmentStarts: [0]),
        ]
    }

    /// Runs `c` on frames `grid(0..<20)` with audio in 1000-sample chunks from `audioBase`, commands given first,
    /// then samples in arrival order (each frame at its PTS, each chunk at its end), and checks video and audio.
    private func run(_ c: Case, grid: @escaping (Int) -> MediaTime, frameDuration: MediaTime, exactSeams: Bool,
                     label: String, file: StaticString = #filePath, line: UInt = #line) {
        let name = "\(label) / \(c.name)"
        var h = RetimerHarness(frameDuration: frameDuration)
        for (command, time) in c.commands {
            switch command {
            case .start: h.retimer.start(at: time)
            case .pause: h.retimer.pause(at: time)
            case .stop: h.retimer.stop(at: time)
            }
        }
        let rate = RetimerEdgeCaseTests.rate, audioBase = RetimerEdgeCaseTests.audioBase
        var chunks: [AudioChunk] = (0..<60).map {
            RetimerHarness.chunk(base: audioBase, rate: rate, first: Int64($0) * 1000, count: 1000)
        }
        for k in 0..<20 {
            while let next = chunks.first, next.end <= grid(k) { h.audio(chunks.removeFirst()) }
            h.video(grid(k))
        }
        for chunk in chunks { h.audio(chunk) }
        h.finish()

        // Video: exactly the expected frames, the first at 0, each one frame after the previous (regular grid).
        let indexOf = { (pts: MediaTime) in (0..<20).first { grid($0) == pts } ?? -1 }
        XCTAssertEqual(h.frames.map { indexOf($0.pts) }, c.kept, name, file: file, line: line)
        XCTAssertEqual(h.frames.filter(\.startsSegment).map { indexOf($0.pts) }, c.segmentStarts, name, file: file, line: line)
        for (i, frame) in h.frames.enumerated() {
            if i == 0 {
                XCTAssertEqual(frame.fileTime, .zero, name, file: file, line: line)
                continue
            }
            let step = frame.fileTime - h.frames[i - 1].fileTime
            if frame.startsSegment && !exactSeams {
                XCTAssertLessThanOrEqual(abs(try! step.subtracting(frameDuration).rescaled(to: 1_000_000_000, rounding: .nearest).value),
                                         1, "\(name): seam \(step)", file: file, line: line)
            } else if frame.startsSegment {
                XCTAssertEqual(step, frameDuration, "\(name): seam", file: file, line: line)
            } else {
                XCTAssertEqual(step, frame.pts - h.frames[i - 1].pts, "\(name): same offset in a segment", file: file, line: line)
            }
        }
        XCTAssertEqual(h.retimer.videoDuration, h.frames.last.map { $0.fileTime + frameDuration } ?? .zero, name,
                       file: file, line: line)
        XCTAssertEqual(h.retimer.counters.lateVideoFrames, 0, name, file: file, line: line)

        // Audio: exactly the samples captured inside each segment [first frame, last frame + one frame).
        var segments: [(start: MediaTime, end: MediaTime, offset: MediaTime)] = []
        for frame in h.frames {
            let offset = frame.pts - frame.fileTime
            if frame.startsSegment {
                segments.append((frame.pts, frame.pts + frameDuration, offset))
            } else {
                segments[segments.count - 1].end = frame.pts + frameDuration
            }
        }
        var expected: [Range<Int64>] = []
        for segment in segments {
            let range = firstSample(atOrAfter: segment.start, base: audioBase, rate: rate)
                ..< firstSample(atOrAfter: segment.end, base: audioBase, rate: rate)
            if let last = expected.last, last.upperBound == range.lowerBound {
                expected[expected.count - 1] = last.lowerBound..<range.upperBound
            } else {
                expected.append(range)
            }
        }
        let (kept, contiguous) = h.keptSampleRanges()
        XCTAssertTrue(contiguous, name, file: file, line: line)
        if exactSeams {
            XCTAssertEqual(kept, expected, "\(name): kept samples", file: file, line: line)
            XCTAssertEqual(h.retimer.counters, Retimer.Counters(), name, file: file, line: line)
        } else {
            // Timescales without a common Int32 multiple are exact to the nanosecond: a cut that falls within a
            // nanosecond of a sample instant may move by that one sample.
            let total = { (ranges: [Range<Int64>]) in ranges.reduce(0) { $0 + $1.count } }
            XCTAssertLessThanOrEqual(abs(total(kept) - total(expected)), 2 * expected.count + 2, "\(name)",
                                     file: file, line: line)
            XCTAssertLessThanOrEqual(abs((kept.first?.lowerBound ?? 0) - (expected.first?.lowerBound ?? 0)), 1, "\(name)",
                                     file: file, line: line)
        }
        // Each piece has its segment's offset, as video does.
        for piece in h.audio where exactSeams {
            let capture = audioBase + MediaTime(value: RetimerHarness.index(piece, 0), timescale: rate)
            guard let segment = segments.last(where: { $0.start <= capture }) else {
                XCTFail("\(name): audio before every segment", file: file, line: line)
                continue
            }
            let offset = capture - piece.pts
            if exactSeams {
                XCTAssertEqual(offset, segment.offset, "\(name): audio offset", file: file, line: line)
            } else {
                XCTAssertLessThanOrEqual(abs(try! offset.subtracting(segment.offset).rescaled(to: 1_000_000_000, rounding: .nearest).value),
                                         1, "\(name): audio offset", file: file, line: line)
            }
        }
    }

    func testEdgeTableOnTheSampleGrid() {
        let f = { (k: Int) in RetimerEdgeCaseTests.base + MediaTime(value: Int64(k), timescale: 30) }
        for c in RetimerEdgeCaseTests.cases(grid: f) {
            run(c, grid: f, frameDuration: RetimerEdgeCaseTests.thirtieth, exactSeams: true, label: "on samples")
        }
    }

    /// The same table with frames 7 µs off the audio sample grid: every cut falls between two samples.
    func testEdgeTableBetweenSamples() {
        let f = { (k: Int) in
            RetimerEdgeCaseTests.base + MediaTime(value: 7, timescale: 1_000_000) + MediaTime(value: Int64(k), timescale: 30)
        }
        for c in RetimerEdgeCaseTests.cases(grid: f) {
            run(c, grid: f, frameDuration: RetimerEdgeCaseTests.thirtieth, exactSeams: true, label: "between samples")
        }
    }

    /// The table with capture times in other timescales: frame ticks, audio ticks, nanoseconds, and 29.97 fps.
    func testEdgeTableInEveryTimescale() {
        let ntsc = MediaTime(value: 1001, timescale: 30000)
        let variants: [(String, MediaTime, Bool, (Int) -> MediaTime)] = [
            ("1/30 ticks", RetimerEdgeCaseTests.thirtieth, true, { MediaTime(value: 3000 + Int64($0), timescale: 30) }),
            ("1/48000 ticks", RetimerEdgeCaseTests.thirtieth, true,
             { MediaTime(value: 4_800_000 + 1600 * Int64($0), timescale: 48000) }),
            ("1/1000000000 ticks, 30 fps", RetimerEdgeCaseTests.thirtieth, false,
             { .nanoseconds(100_000_000_000 + (Int64($0) * 1_000_000_000 + 15) / 30) }),
            ("1001/30000 frames in 1/30000 ticks", ntsc, true,
             { MediaTime(value: 3_000_000 + 1001 * Int64($0), timescale: 30000) }),
            ("1001/30000 frames in 1/1000000000 ticks", ntsc, false,
             { .nanoseconds(100_000_000_000 + (Int64($0) * 1001 * 1_000_000_000 + 15000) / 30000) }),
            ("1001/30000 frames in 1/48000 ticks, µs commands", ntsc, true,
             { MediaTime(value: 4_800_000, timescale: 48000) + ntsc.multipliedUnchecked(Int64($0)) }),
        ]
        for (label, duration, exact, grid) in variants {
            for c in RetimerEdgeCaseTests.cases(grid: grid) {
                run(c, grid: grid, frameDuration: duration, exactSeams: exact, label: label)
            }
        }
    }

    // MARK: Late and duplicate samples

    func testLateAndDuplicateVideoIsDroppedAndCounted() {
        var h = RetimerHarness(frameDuration: RetimerEdgeCaseTests.thirtieth)
        let f = { (k: Int64) in RetimerEdgeCaseTests.base + MediaTime(value: k, timescale: 30) }
        h.retimer.start(at: f(0))
        h.video(f(0))
        h.video(f(1))
        XCTAssertEqual(h.video(f(1)), .drop(.late), "duplicate")
        XCTAssertEqual(h.video(f(0)), .drop(.late), "out of order")
        XCTAssertEqual(h.video(f(1) - .nanoseconds(1)), .drop(.late))
        XCTAssertEqual(h.video(f(2)), .append(fileTime: MediaTime(value: 2, timescale: 30), startsSegment: false))
        XCTAssertEqual(h.retimer.counters.lateVideoFrames, 3)
    }

    func testRepeatedAndOverlappingAudioIsTrimmedAndCounted() {
        let base = RetimerEdgeCaseTests.base, rate = RetimerEdgeCaseTests.rate
        var h = RetimerHarness(frameDuration: RetimerEdgeCaseTests.thirtieth)
        h.retimer.start(at: base)
        h.audio(RetimerHarness.chunk(base: base, rate: rate, first: 0, count: 1000))
        h.audio(RetimerHarness.chunk(base: base, rate: rate, first: 0, count: 1000))       // repeated
        h.audio(RetimerHarness.chunk(base: base, rate: rate, first: 900, count: 1000))     // 100 overlap
        h.audio(RetimerHarness.chunk(base: base, rate: rate, first: 1900, count: 1000))    // contiguous
        h.audio(RetimerHarness.chunk(base: base, rate: rate, first: 2900, count: 3000))
        for k in 0..<3 { h.video(base + MediaTime(value: Int64(k), timescale: 30)) }
        h.retimer.stop(at: base + .milliseconds(100))
        h.finish()
        XCTAssertEqual(h.retimer.counters.lateAudioSamples, 1100)
        XCTAssertEqual(h.keptSampleRanges().ranges, [0..<4800])
        XCTAssertTrue(h.keptSampleRanges().contiguousPieces)
        XCTAssertEqual(h.audio.first?.pts, .zero)
        XCTAssertEqual(h.retimer.audioFileEnd, MediaTime(value: 1, timescale: 10))
    }

    /// Video stops after a pause (a camera unplugged while paused) while audio goes on: the paused audio must not
    /// be written when the audio queue is released without video.
    func testPausedAudioIsNotWrittenWhenVideoStalls() {
        let base = RetimerEdgeCaseTests.base, rate = RetimerEdgeCaseTests.rate
        var h = RetimerHarness(frameDuration: RetimerEdgeCaseTests.thirtieth)
        h.retimer.start(at: base)
        h.retimer.pause(at: base + MediaTime(value: 10, timescale: 30))
        var next: Int64 = 0
        for k in 0..<10 {
            let pts = base + MediaTime(value: Int64(k), timescale: 30)
            while base + MediaTime(value: next + 1000, timescale: rate) <= pts {
                h.audio(RetimerHarness.chunk(base: base, rate: rate, first: next, count: 1000))
                next += 1000
            }
            h.video(pts)
        }
        // Five seconds of audio and no video at all.
        while next < 5 * 48000 + 16000 {
            h.audio(RetimerHarness.chunk(base: base, rate: rate, first: next, count: 1000))
            next += 1000
        }
        XCTAssertEqual(h.keptSampleRanges().ranges, [0..<16000], "before finish")
        // The timeline is decided up to the stall horizon: a frame from before it can no longer be placed.
        XCTAssertEqual(h.video(base + MediaTime(value: 11, timescale: 30)), .drop(.late))
        h.finish()
        XCTAssertEqual(h.keptSampleRanges().ranges, [0..<16000], "after finish")
        // Nothing is accepted after finish.
        XCTAssertEqual(h.video(base + .seconds(10)), .drop(.notRecording))
    }

    // MARK: Int64 extremes

    func testInt64ExtremesAreDroppedAndCountedNotCrashed() {
        let d = MediaTime(value: 1, timescale: 30)
        let frameNs: Int64 = 33_333_333
        var h = RetimerHarness(frameDuration: d)
        h.retimer.start(at: .nanoseconds(Int64.max - 10 * frameNs))
        for k in stride(from: 5, through: 0, by: -1) { h.video(.nanoseconds(Int64.max - Int64(k) * frameNs)) }
        // Frames 0…4 end at or before Int64.max; the frame at Int64.max itself cannot end.
        XCTAssertEqual(h.frames.count, 5)
        XCTAssertEqual(h.drops.map(\.reason), [.overflow])
        XCTAssertEqual(h.retimer.counters.overflowedSamples, 1)
        // Audio whose end is past Int64.max.
        h.audio(AudioChunk(pts: .nanoseconds(Int64.max - 1000), sampleRate: 48000, channels: 1,
                           samples: [Int16](repeating: 1, count: 480)))
        XCTAssertEqual(h.retimer.counters.overflowedSamples, 481)
        h.finish()
        XCTAssertEqual(h.retimer.videoDuration, MediaTime.nanoseconds(5 * frameNs))

        // From Int64.min to Int64.max: the file time cannot be represented.
        var g = RetimerHarness(frameDuration: d)
        g.retimer.start(at: .nanoseconds(Int64.min))
        XCTAssertEqual(g.video(.nanoseconds(Int64.min)), .append(fileTime: .zero, startsSegment: true))
        XCTAssertEqual(g.video(.nanoseconds(Int64.min + frameNs)), .append(fileTime: .nanoseconds(frameNs), startsSegment: false))
        XCTAssertEqual(g.video(.nanoseconds(Int64.max - frameNs)), .drop(.overflow))
        XCTAssertEqual(g.video(.nanoseconds(Int64.min + 2 * frameNs)), .drop(.late))
        g.audio(AudioChunk(pts: MediaTime(value: Int64.min, timescale: 1), sampleRate: 48000, channels: 1,
                           samples: [Int16](repeating: 1, count: 48)))
        g.audio(AudioChunk(pts: .nanoseconds(Int64.max / 2), sampleRate: 48000, channels: 1,
                           samples: [Int16](repeating: 1, count: 48)))
        g.retimer.pause(at: .nanoseconds(Int64.max))
        g.finish()
        // One frame, and both chunks: Int64.min seconds cannot be rescaled to samples, and Int64.max/2 ns minus an
        // offset of Int64.min ns does not fit.
        XCTAssertEqual(g.retimer.counters.overflowedSamples, 1 + 48 + 48)
        XCTAssertEqual(g.retimer.counters.lateVideoFrames, 1)
        XCTAssertTrue(g.audio.isEmpty)
        // Commands at the extremes are just times.
        var e = Retimer(frameDuration: d)
        e.start(at: MediaTime(value: Int64.min, timescale: 1))
        e.stop(at: MediaTime(value: Int64.max, timescale: 1))
        XCTAssertEqual(e.retimeVideo(pts: .zero), .append(fileTime: .zero, startsSegment: true))
        e.finish()
        XCTAssertEqual(e.retimeVideo(pts: .seconds(1)), .drop(.notRecording))
    }
}

extension MediaTime {
    /// `self × count`, trapping on overflow: for test grids only.
    fileprivate func multipliedUnchecked(_ count: Int64) -> MediaTime { try! multiplied(by: count) }
}

/// Segments that overlap in capture time (the resume frame came less than one frame after the last kept one, as
/// with jitter or a lens faster than the output): the overlapping audio is written once, by the old segment.
final class RetimerOverlappingSegmentTests: XCTestCase {
    func testAudioOfOverlappingSegmentsIsNeverWrittenTwice() {
        let d = MediaTime(value: 1, timescale: 30)
        let base = MediaTime.seconds(10)
        var harness = RetimerHarness(frameDuration: d)
        // Frames 0, 1/30, 2/30 kept: segment 1 is [0, 100 ms) of capture time. Paused at 80 ms, resumed at 85 ms;
        // the next frame comes at 90 ms, so segment 2 starts 10 ms before segment 1 ends.
        harness.retimer.start(at: base)
        harness.retimer.pause(at: base + .milliseconds(80))
        harness.retimer.resume(at: base + .milliseconds(85))
        harness.retimer.stop(at: base + .milliseconds(250))
        // Audio arrives after the video (a microphone with more latency than the camera), so both segments are
        // known when it is cut.
        for k in 0...2 { harness.video(base + (try! d.multiplied(by: Int64(k)))) }
        for k in 0..<5 { harness.video(base + .milliseconds(90) + (try! d.multiplied(by: Int64(k)))) }
        harness.audio(RetimerHarness.chunk(base: base, rate: 48000, first: 0, count: 48000 / 2))
        harness.finish()
        XCTAssertEqual(harness.frames.filter(\.startsSegment).count, 2)
        let (ranges, contiguous) = harness.keptSampleRanges()
        XCTAssertTrue(contiguous)
        var seen = Set<Int64>()
        var repeated = 0
        for range in ranges { for g in range { if !seen.insert(g).inserted { repeated += 1 } } }
        XCTAssertEqual(repeated, 0, "no captured sample is written twice: \(ranges)")
        // Segment 1's audio runs to its end (100 ms = sample 4800); segment 2's starts there, not at 90 ms.
        XCTAssertEqual(ranges.first?.lowerBound, 0)
        XCTAssertTrue(ranges.contains { $0.contains(4799) } && ranges.contains { $0.contains(4800) })
        XCTAssertFalse(ranges.contains { $0.lowerBound == 4320 }, "segment 2's audio must not restart at 90 ms")
    }
}
