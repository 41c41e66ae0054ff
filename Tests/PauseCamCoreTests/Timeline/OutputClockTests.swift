import XCTest
@testable import PauseCamCore

/// The output clock: a table of rate pairs and edge cases, and seeded jittered schedules whose invariants are
/// checked slot by slot (exact grid, nearest-slot choice, no slot decided twice, seams at restarts).
final class OutputClockTests: XCTestCase {
    private static func us(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1_000_000) }

    private static func frame(_ pts: MediaTime, lens: String = "main") -> VideoFrame {
        VideoFrame(pts: pts, width: 2, height: 2, format: .yuv420p,
                   planes: [Plane(bytes: [0, 0, 0, 0], stride: 2), Plane(bytes: [0], stride: 1),
                            Plane(bytes: [0], stride: 1)], lens: lens)
    }

    /// Frames of a lens at `rate` from capture time `start`, `count` of them.
    private static func frames(rate: FrameRate, start: MediaTime, count: Int, lens: String = "main") -> [VideoFrame] {
        (0..<count).map { frame(start + (try! rate.frameDuration.multiplied(by: Int64($0))), lens: lens) }
    }

    private func run(_ clock: inout OutputClock, _ frames: [VideoFrame]) -> [OutputClock.Slot] {
        frames.flatMap { clock.offer($0) }
    }

    // MARK: Table

    func testRatePairsGiveOneSlotPerOutputFrameAndRepeatOrSkipAsExpected() {
        struct Row { var lens: FrameRate; var output: FrameRate; var repeatsPerSlot: Double }
        let rows = [
            Row(lens: FrameRate(30), output: FrameRate(30), repeatsPerSlot: 0),
            Row(lens: FrameRate(15), output: FrameRate(30), repeatsPerSlot: 0.5),
            Row(lens: FrameRate(60), output: FrameRate(30), repeatsPerSlot: 0),
            Row(lens: FrameRate(25), output: FrameRate(30), repeatsPerSlot: 1.0 / 6),
            Row(lens: FrameRate(30), output: FrameRate(30000, 1001), repeatsPerSlot: 0),
            Row(lens: FrameRate(5), output: FrameRate(30), repeatsPerSlot: 5.0 / 6),
        ]
        for row in rows {
            var clock = OutputClock(frameDuration: row.output.frameDuration)
            let start = OutputClockTests.us(5_000_000)
            clock.restart(at: start)
            // Ten seconds of the lens, then a flush at the stop.
            let lensFrames = OutputClockTests.frames(rate: row.lens, start: start, count: Int(10 * row.lens.framesPerSecond))
            let stop = start + .seconds(10)
            var slots = run(&clock, lensFrames)
            slots += clock.flush(before: stop)
            // A frame just before the stop may decide the slot at the stop itself (the retimer drops that one).
            slots = slots.filter { $0.frame.pts < stop }
            let expected = Int((10 * row.output.framesPerSecond).rounded(.up))
            XCTAssertEqual(slots.count, expected, "\(row.lens) → \(row.output)")
            for (index, slot) in slots.enumerated() {
                XCTAssertEqual(slot.frame.pts, start + (try! row.output.frameDuration.multiplied(by: Int64(index))),
                               "\(row.lens) → \(row.output): slot \(index) off the grid")
            }
            let repeats = slots.filter(\.repeated).count
            XCTAssertEqual(Double(repeats) / Double(slots.count), row.repeatsPerSlot, accuracy: 0.02,
                           "\(row.lens) → \(row.output): repeats")
        }
    }

    func testJitterAtEqualRatesNeverRepeatsOrSkips() {
        // ±4 ms of capture jitter on a 30 fps camera into a 30 fps movie: each slot shows its own frame.
        var clock = OutputClock(frameDuration: FrameRate(30).frameDuration)
        let start = OutputClockTests.us(1_000_000)
        clock.restart(at: start)
        let jitter: [Int64] = [0, 4000, -3000, 2500, -4000, 3900, -1000, 0, 4000, -4000]
        var frames: [VideoFrame] = []
        for k in 0..<300 {
            let nominal = 1_000_000 + Int64(k) * 1_000_000 / 30
            frames.append(OutputClockTests.frame(OutputClockTests.us(nominal + (k == 0 ? 0 : jitter[k % jitter.count]))))
        }
        let slots = run(&clock, frames)
        XCTAssertEqual(slots.count, 300, "each frame decides its own slot as it arrives")
        XCTAssertFalse(slots.contains { $0.repeated }, "jitter under half a frame must not repeat")
        for (index, slot) in slots.enumerated() {
            XCTAssertEqual(slot.capturedAt, frames[index].pts, "slot \(index) shows frame \(index)")
        }
    }

    func testNoSlotsBeforeTheFirstAnchorAndNoneBeforeTheStart() {
        var clock = OutputClock(frameDuration: FrameRate(30).frameDuration)
        XCTAssertTrue(run(&clock, OutputClockTests.frames(rate: FrameRate(30), start: .zero, count: 10)).isEmpty,
                      "frames before any start decide nothing")
        clock.restart(at: OutputClockTests.us(1_000_000))
        let slots = run(&clock, OutputClockTests.frames(rate: FrameRate(30), start: .seconds(1), count: 4))
        XCTAssertEqual(slots.map(\.frame.pts), (0..<4).map { .seconds(1) + MediaTime(value: $0, timescale: 30) })
    }

    func testRestartFinishesTheOldGridAndAnchorsAtTheFirstFrameAfterIt() {
        var clock = OutputClock(frameDuration: FrameRate(30).frameDuration)
        clock.restart(at: .zero)
        // 15 fps frames: 0, 1/15, …, up to 1 s, then a resume at 2.01 s with frames from 2.02 s (a new phase).
        var slots = run(&clock, OutputClockTests.frames(rate: FrameRate(15), start: .zero, count: 16))
        clock.restart(at: MediaTime(value: 2010, timescale: 1000))
        slots += run(&clock, OutputClockTests.frames(rate: FrameRate(15), start: .milliseconds(1500), count: 5))
        let before = slots.count
        slots += run(&clock, OutputClockTests.frames(rate: FrameRate(15), start: MediaTime(value: 2020, timescale: 1000),
                                                       count: 3))
        XCTAssertGreaterThan(slots.count, before)
        let newGrid = slots.filter { $0.frame.pts >= MediaTime(value: 2010, timescale: 1000) }
        XCTAssertEqual(newGrid.first?.frame.pts, MediaTime(value: 2020, timescale: 1000),
                       "the new grid is anchored at the first frame at or after the restart")
        XCTAssertTrue(zip(slots, slots.dropFirst()).allSatisfy { $0.frame.pts < $1.frame.pts }, "slots in order")
        let oldGrid = slots.filter { $0.frame.pts < MediaTime(value: 2010, timescale: 1000) }
        XCTAssertEqual(oldGrid.last?.frame.pts,
                       try! FrameRate(30).frameDuration.multiplied(by: 60),
                       "the old grid runs up to the restart on frames captured before it (2.0 s is its last slot)")
    }

    func testALensChangeIsMarkedOnTheFirstSlotOfTheNewLens() {
        var clock = OutputClock(frameDuration: FrameRate(30).frameDuration)
        clock.restart(at: .zero)
        var frames = OutputClockTests.frames(rate: FrameRate(30), start: .zero, count: 5, lens: "wide")
        frames += OutputClockTests.frames(rate: FrameRate(30), start: MediaTime(value: 5, timescale: 30), count: 5,
                                          lens: "tele")
        let slots = run(&clock, frames)
        XCTAssertEqual(slots.filter(\.lensChanged).map(\.frame.pts), [MediaTime(value: 5, timescale: 30)])
        XCTAssertEqual(slots[5].frame.lens, "tele")
    }

    func testALateFrameFromAnotherLensChangesNothing() {
        var clock = OutputClock(frameDuration: FrameRate(30).frameDuration)
        clock.restart(at: .zero)
        _ = run(&clock, OutputClockTests.frames(rate: FrameRate(30), start: .zero, count: 3))
        XCTAssertTrue(clock.offer(OutputClockTests.frame(MediaTime(value: 1, timescale: 60), lens: "wide")).isEmpty)
        let next = clock.offer(OutputClockTests.frame(MediaTime(value: 3, timescale: 30)))
        XCTAssertEqual(next.map(\.frame.lens), ["main"])
    }

    func testFlushHoldsTheLastPictureUpToTheGivenTime() {
        var clock = OutputClock(frameDuration: FrameRate(30).frameDuration)
        clock.restart(at: .zero)
        _ = run(&clock, OutputClockTests.frames(rate: FrameRate(30), start: .zero, count: 3))
        // The camera stops; the picture is held for one second.
        let held = clock.flush(before: .seconds(1) + MediaTime(value: 3, timescale: 30))
        XCTAssertEqual(held.count, 30, "slots 3…32: frame 2 decided its own slot when it came")
        XCTAssertEqual(held.filter(\.repeated).count, 30)
        XCTAssertTrue(held.allSatisfy { $0.capturedAt == MediaTime(value: 2, timescale: 30) })
        XCTAssertTrue(clock.flush(before: .seconds(1)).isEmpty, "no slot is decided twice")
    }

    func testRestartsWaitingTogetherEachAnchorTheirOwnGrid() {
        // Frames lag behind commands: resume at r1, pause, resume at r2 all came before the camera's frame of r1.
        // (Found by OutputClockPropertyTests seeds 2 and 4.) Each row: the frames' capture times (ms) after the two
        // restarts, and the slots expected at or after r1 (ms).
        struct Row { var name: String; var frames: [Int64]; var slotsFromR1: [Int64] }
        let r1: Int64 = 1_000, r2: Int64 = 1_100
        let rows = [
            Row(name: "a frame in each span (the first grid runs up to r2)", frames: [1_010, 1_110, 1_150],
                slotsFromR1: [1_010, 1_050, 1_090, 1_110, 1_150]),
            Row(name: "no frame in the first span", frames: [1_105, 1_145],
                slotsFromR1: [1_105, 1_145]),
            Row(name: "an old frame first, then a frame in each span", frames: [990, 1_030, 1_120],
                slotsFromR1: [1_030, 1_070, 1_120]),
        ]
        for row in rows {
            var clock = OutputClock(frameDuration: MediaTime(value: 1, timescale: 25))   // 40 ms
            clock.restart(at: .milliseconds(0))
            var slots = run(&clock, (0..<10).map { OutputClockTests.frame(.milliseconds(Int64($0) * 40)) })
            clock.restart(at: .milliseconds(r1))
            clock.restart(at: .milliseconds(r2))
            slots += run(&clock, row.frames.map { OutputClockTests.frame(.milliseconds($0)) })
            XCTAssertEqual(slots.filter { $0.frame.pts >= .milliseconds(r1) }.map(\.frame.pts),
                           row.slotsFromR1.map { .milliseconds($0) }, row.name)
            XCTAssertTrue(slots.filter { $0.frame.pts >= .milliseconds(r1) }.allSatisfy { $0.capturedAt >= .milliseconds(r1) },
                          "\(row.name): no picture from before the resume after it")
        }
    }

    // MARK: Properties


    func testSeededJitteredSchedulesKeepTheGridExact() {
        let lensRates = [FrameRate(15), FrameRate(25), FrameRate(30), FrameRate(60), FrameRate(5)]
        let outputs = [FrameRate(25), FrameRate(30000, 1001), FrameRate(30)]
        for seed in UInt64(1)...120 {
            var rng = SeededGenerator(state: seed)
            let output = outputs.randomElement(using: &rng)!
            let d = output.frameDuration
            let half = MediaTime(value: d.value, timescale: d.timescale * 2)
            var clock = OutputClock(frameDuration: d)
            var slots: [OutputClock.Slot] = []
            var offered: [VideoFrame] = []
            var anchors: [MediaTime] = []
            var restarts: [MediaTime] = []
            var time = Int64.random(in: 1_000_000...9_000_000, using: &rng)   // µs
            for segment in 0..<Int.random(in: 1...4, using: &rng) {
                let restart = OutputClockTests.us(time)
                clock.restart(at: restart)
                restarts.append(restart)
                let rate = lensRates.randomElement(using: &rng)!
                let period = 1_000_000 * Int64(rate.denominator) / Int64(rate.numerator)
                var pts = time + Int64.random(in: 0..<period, using: &rng)
                var first = true
                for _ in 0..<Int.random(in: 5...90, using: &rng) {
                    let jitter = Int64.random(in: -3000...3000, using: &rng)
                    let frame = OutputClockTests.frame(OutputClockTests.us(Swift.max(time, pts + jitter)),
                                                       lens: "lens\(segment % 2)")
                    if first { anchors.append(frame.pts); first = false }
                    offered.append(frame)
                    slots += clock.offer(frame)
                    pts += period
                }
                time = pts + Int64.random(in: 0...3_000_000, using: &rng)
            }
            slots += clock.flush(before: OutputClockTests.us(time))

            // Strictly increasing, and every slot on its segment's grid.
            XCTAssertTrue(zip(slots, slots.dropFirst()).allSatisfy { $0.frame.pts < $1.frame.pts }, "seed \(seed)")
            for slot in slots {
                guard let anchor = anchors.last(where: { $0 <= slot.frame.pts }) else {
                    XCTFail("seed \(seed): slot before the first anchor"); continue
                }
                let ticks = try! (slot.frame.pts - anchor).rescaled(to: d.timescale * 1000, rounding: .nearest)
                let perFrame = Int64(d.value) * 1000
                XCTAssertLessThanOrEqual(abs(ticks.value - (ticks.value + perFrame / 2) / perFrame * perFrame), 1,
                                         "seed \(seed): slot \(slot.frame.pts) off the grid of \(anchor)")
                // The picture is the first frame of its segment captured in the slot's window [s − ½, s + ½), or
                // with none there the newest before it (a slot of the old grid between the last frame and the
                // restart holds the old segment's last picture).
                let nextRestart = restarts.first { $0 > slot.frame.pts }
                let ofSegment = offered.map(\.pts).filter { pts in nextRestart.map { pts < $0 } ?? true }
                let expected = ofSegment.first { $0 >= slot.frame.pts - half && $0 < slot.frame.pts + half }
                    ?? ofSegment.filter { $0 < slot.frame.pts - half }.max()
                if let restart = restarts.last(where: { $0 <= slot.frame.pts }), let expected, expected >= restart {
                    XCTAssertEqual(slot.capturedAt, expected, "seed \(seed): slot \(slot.frame.pts)")
                }
                XCTAssertLessThan(slot.capturedAt, slot.frame.pts + half, "seed \(seed): a slot never shows the future")
            }
            // Each segment's grid starts at its anchor.
            for anchor in anchors.dropFirst() {
                XCTAssertTrue(slots.contains { $0.frame.pts == anchor }, "seed \(seed): no slot at anchor \(anchor)")
            }
        }
    }

    /// A slot index from another host (a group command's) can be anything: far slots give far times, never a trap.
    func testSlotTimesOfExtremeIndicesSaturateInsteadOfTrapping() {
        let anchor = MediaTime.nanoseconds(-1_796_433_234_592_842_495)
        let frame = FrameRate(30).frameDuration
        // Int64.max ns on a 30 fps grid: the slot past it, whose time no nanosecond count holds.
        let far = OutputClock.slotTime(anchor: anchor, index: 276_701_161_106, frameDuration: frame)
        XCTAssertGreaterThan(far, .seconds(7_000_000_000))
        XCTAssertEqual(OutputClock.slotTime(anchor: anchor, index: .max, frameDuration: frame).value, .max)
        XCTAssertEqual(OutputClock.slotTime(anchor: anchor, index: .min, frameDuration: frame).value, .min)
        XCTAssertEqual(OutputClock.slotTime(anchor: .zero, index: 30, frameDuration: frame), .seconds(1))
    }
}
