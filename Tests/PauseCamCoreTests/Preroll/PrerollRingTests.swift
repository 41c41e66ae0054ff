import XCTest
@testable import PauseCamCore

/// The preroll's ring: what it keeps, how far back, and that its memory never passes the budget it was given.
final class PrerollRingTests: XCTestCase {
    static let frame = MediaTime(value: 1, timescale: 30)

    static func frame(at index: Int64, bytes: Int = 100, lens: String = "main") -> VideoFrame {
        VideoFrame(pts: MediaTime(value: index, timescale: 30), width: 10, height: 10, format: .jpeg,
                   planes: [Plane(bytes: [UInt8](repeating: 0, count: bytes), stride: 0)], lens: lens)
    }

    static func chunk(at sample: Int64, frames: Int = 480) -> AudioChunk {
        AudioChunk(pts: MediaTime(value: sample, timescale: 48_000), sampleRate: 48_000, channels: 1,
                   samples: (0..<frames).map { Int16(truncatingIfNeeded: $0) })
    }

    func testKeepsTheLengthAndTheSlackAndNoMore() {
        var ring = PrerollRing(length: .seconds(1), byteBudget: 1 << 20)
        for index in Int64(0)..<90 {
            let frame = Self.frame(at: index)
            ring.keep(.video(frame, program: frame, iso: false))
        }
        // The newest frame is at 89/30 s: the ring keeps from 89/30 − 1.5 s on, that is frame 44 on.
        XCTAssertEqual(ring.oldestVideo, MediaTime(value: 44, timescale: 30))
        XCTAssertEqual(ring.count, 46)
        XCTAssertEqual(ring.bytes, 46 * 100)
        XCTAssertEqual(ring.budgetDrops, 0)
    }

    func testTakeFromAnEdgeCutsSoundAtTheSampleAndEmptiesTheRing() {
        var ring = PrerollRing(length: .seconds(3), byteBudget: 1 << 20)
        ring.keep(.audio(Self.chunk(at: 0)))          // 0 … 10 ms
        ring.keep(.video(Self.frame(at: 0), program: nil, iso: true))
        ring.keep(.audio(Self.chunk(at: 480)))        // 10 … 20 ms
        ring.keep(.video(Self.frame(at: 1), program: Self.frame(at: 1), iso: false))
        ring.keep(.audio(Self.chunk(at: 960)))        // 20 … 30 ms
        let edge = MediaTime(value: 1, timescale: 30) // 33.3 ms
        let early = MediaTime.milliseconds(15)
        var copy = ring
        let taken = copy.take(from: early)
        XCTAssertEqual(copy.count, 0)
        XCTAssertEqual(copy.bytes, 0)
        // The chunk of 10 … 20 ms is cut at 15 ms exactly (sample 720); the frame at 0 is before the edge.
        guard taken.count == 3, case .audio(let cut) = taken[0], case .video(let frame, let program, false) = taken[1],
              case .audio(let last) = taken[2] else { return XCTFail("taken: \(taken)") }
        XCTAssertEqual(cut.pts, early)
        XCTAssertEqual(cut.frameCount, 240)
        XCTAssertEqual(cut.samples.first, 240)
        XCTAssertEqual(frame.pts, edge)
        XCTAssertNotNil(program)
        XCTAssertEqual(last.frameCount, 480)
        XCTAssertEqual(ring.take(from: edge).count, 1, "only the frame at the edge; the sound ends before it")
    }

    /// Frames of random sizes (a JPEG camera's), random sound, a small budget: the kept bytes never pass it, the
    /// oldest go first, and each sample let go for the budget is counted.
    func testTheBytesNeverPassTheBudget() {
        for seed in UInt64(1)...10 {
            var random = SeededGenerator(seed: seed)
            let budget = Int.random(in: 8_000...40_000, using: &random)
            var ring = PrerollRing(length: .seconds(3), byteBudget: budget)
            var audioSample: Int64 = 0
            for index in Int64(0)..<600 {
                let size = Int.random(in: 50...3_000, using: &random)
                let frame = Self.frame(at: index, bytes: size)
                ring.keep(.video(frame, program: Bool.random(using: &random) ? frame : nil, iso: true))
                let chunk = Self.chunk(at: audioSample, frames: 1_600)
                audioSample += 1_600
                ring.keep(.audio(chunk))
                XCTAssertLessThanOrEqual(ring.bytes, budget, "seed \(seed)")
            }
            XCTAssertLessThanOrEqual(ring.largestBytes, budget, "seed \(seed)")
            XCTAssertGreaterThan(ring.budgetDrops, 0, "seed \(seed): the budget was never reached")
            // What is left is the newest: a frame and a chunk always fit, so the last frame offered is kept.
            let taken = ring.take(from: .zero)
            guard case .video(let last, _, _) = taken.last(where: { if case .video = $0 { true } else { false } }) else {
                return XCTFail("seed \(seed): no frame kept")
            }
            XCTAssertEqual(last.pts, MediaTime(value: 599, timescale: 30), "seed \(seed)")
        }
    }

    func testASampleLargerThanTheWholeBudgetIsNotKept() {
        var ring = PrerollRing(length: .seconds(3), byteBudget: 500)
        ring.keep(.video(Self.frame(at: 0, bytes: 400), program: nil, iso: true))
        ring.keep(.video(Self.frame(at: 1, bytes: 600), program: nil, iso: true))
        XCTAssertEqual(ring.count, 1)
        XCTAssertEqual(ring.bytes, 400)
        XCTAssertEqual(ring.budgetDrops, 1)
    }
}
