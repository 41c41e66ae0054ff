import XCTest
@testable import PauseCamCore

/// The output clock anchored on a shared phase (a group's grid): slots fall at anchor + k × frame, every segment
/// starts on the first of them at or after its start, whatever the camera's phase; without an anchor nothing
/// changes.
final class OutputClockPhaseAnchorTests: XCTestCase {
    private static func frame(_ pts: MediaTime) -> VideoFrame {
        VideoFrame(pts: pts, width: 2, height: 2, format: .yuv420p,
                   planes: [Plane(bytes: [0, 0, 0, 0], stride: 2), Plane(bytes: [0], stride: 1),
                            Plane(bytes: [0], stride: 1)], lens: "main")
    }

    private static func ns(_ value: Int64) -> MediaTime { .nanoseconds(value) }

    /// Frames every `period` ns from `start`, `count` of them, each shifted by up to ±`jitter` ns (seeded).
    private static func frames(start: Int64, period: Int64, count: Int, jitter: Int64,
                               random: inout SeededGenerator) -> [VideoFrame] {
        (0..<count).map { i in
            frame(ns(start + Int64(i) * period + (jitter == 0 ? 0 : Int64.random(in: -jitter...jitter, using: &random))))
        }
    }

    func testSlotsFallOnTheAnchorsGridWhateverTheCamerasPhaseProperty() {
        var random = SeededGenerator(seed: 2601)
        let rates = [FrameRate(30), FrameRate(30000, 1001), FrameRate(25)]
        for round in 0..<300 {
            let rate = rates[round % rates.count]
            let frame = rate.frameDuration
            // A phase anchor far in the past (a group's epoch mapped onto the capture clock: negative, huge).
            let anchor = Self.ns(-Int64.random(in: 1_600_000_000_000_000_000...1_800_000_000_000_000_000, using: &random))
            var clock = OutputClock(frameDuration: frame, phaseAnchor: anchor)
            let start = Int64.random(in: 3_600_000_000_000...3_700_000_000_000, using: &random)
            clock.restart(at: Self.ns(start))
            // The camera runs at the output rate with its own phase and ±4 ms jitter, from just after the start.
            let period = SharedClockMapping.nanoseconds(frame)
            let firstFrame = start + Int64.random(in: 0..<period, using: &random)
            let slots = Self.frames(start: firstFrame, period: period, count: 60, jitter: 4_000_000, random: &random)
                .sorted { $0.pts < $1.pts }
                .flatMap { clock.offer($0) }
            XCTAssertFalse(slots.isEmpty)
            // The first slot is the first grid point at or after the start, and each next one a frame later.
            let firstIndex = slots.first.map { Self.index(of: $0.frame.pts, anchor: anchor, frame: frame) } ?? 0
            XCTAssertGreaterThanOrEqual(slots[0].frame.pts, Self.ns(start), "round \(round)")
            XCTAssertLessThan(OutputClock.slotTime(anchor: anchor, index: firstIndex - 1, frameDuration: frame),
                              Self.ns(start), "round \(round): an earlier grid slot was at or after the start")
            for (i, slot) in slots.enumerated() {
                XCTAssertEqual(slot.frame.pts, OutputClock.slotTime(anchor: anchor, index: firstIndex + Int64(i),
                                                                    frameDuration: frame),
                               "round \(round): slot \(i) off the anchor's grid")
            }
        }
    }

    /// The index k with slotTime(anchor, k) == pts (found by division, then checked by the caller).
    private static func index(of pts: MediaTime, anchor: MediaTime, frame: MediaTime) -> Int64 {
        let span = SharedClockMapping.nanoseconds(pts - anchor)
        let period = Double(frame.value) / Double(frame.timescale) * 1e9
        var k = Int64((Double(span) / period).rounded())
        while OutputClock.slotTime(anchor: anchor, index: k, frameDuration: frame) < pts { k += 1 }
        while OutputClock.slotTime(anchor: anchor, index: k, frameDuration: frame) > pts { k -= 1 }
        return k
    }

    func testAStartOnAGridPointStartsThereAndAResumeStartsOnTheGridToo() {
        // 30 fps, anchor at 0.010 s: grid points at 0.010 + k/30 s.
        let frame = FrameRate(30).frameDuration
        let anchor = MediaTime.milliseconds(10)
        var clock = OutputClock(frameDuration: frame, phaseAnchor: anchor)
        let start = OutputClock.slotTime(anchor: anchor, index: 300, frameDuration: frame)  // 10.010 s
        clock.restart(at: start)
        // The camera's first frame 20 ms after the start: slot 300 still shows it (the segment starts on the grid).
        var slots = clock.offer(Self.frame(start + .milliseconds(20)))
        slots += clock.offer(Self.frame(start + .milliseconds(53)))
        slots += clock.offer(Self.frame(start + .milliseconds(87)))
        XCTAssertEqual(slots.first?.frame.pts, start)
        XCTAssertEqual(slots.map(\.frame.pts), (0..<slots.count).map {
            OutputClock.slotTime(anchor: anchor, index: 300 + Int64($0), frameDuration: frame)
        })
        // A resume between grid points (20.000 s: 10 ms before one) starts on the next one, 20.010 s.
        clock.restart(at: .seconds(20))
        let resumed = clock.offer(Self.frame(.seconds(20) + .milliseconds(1)))
        XCTAssertEqual(resumed.last?.frame.pts, MediaTime.seconds(20) + .milliseconds(10))
    }

    func testWithoutAnAnchorTheGridStartsAtTheFirstFrameAsBefore() {
        let frame = FrameRate(30).frameDuration
        var clock = OutputClock(frameDuration: frame)
        clock.restart(at: .seconds(10))
        let first = MediaTime.seconds(10) + .milliseconds(7)
        let slots = clock.offer(Self.frame(first)) + clock.offer(Self.frame(first + frame))
        XCTAssertEqual(slots.first?.frame.pts, first)
        XCTAssertNil(clock.phaseAnchor)
    }
}
