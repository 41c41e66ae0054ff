import XCTest
@testable import PauseCamCore

/// The shared-clock mapping: a table of readings (first, noise, slow drift, a step either way), and a seeded
/// property over long sessions: noise and drift never count as a step, every injected step is found with its size,
/// and a mapped instant is off by no more than the drift since the anchor.
final class SharedClockMappingTests: XCTestCase {
    private static let realtimeBase: Int64 = 1_718_000_000_000_000_000

    private func reading(capture ns: Int64, offset: Int64) -> ClockReading {
        ClockReading(realtimeNanoseconds: ns + offset, capture: .nanoseconds(ns))
    }

    func testReadingsTable() {
        let base = Self.realtimeBase
        var mapping = SharedClockMapping()
        XCTAssertNil(mapping.capture(forRealtime: base))
        XCTAssertEqual(mapping.update(reading(capture: 10_000_000_000, offset: base)), .anchored)
        XCTAssertEqual(mapping.capture(forRealtime: base + 12_000_000_000), .nanoseconds(12_000_000_000))
        XCTAssertEqual(mapping.realtime(forCapture: .seconds(11)), base + 11_000_000_000)
        // Reading noise (the two clock_gettime calls 3 µs apart).
        XCTAssertEqual(mapping.update(reading(capture: 11_000_000_000, offset: base + 3_000)),
                       .steady(driftNanoseconds: 3_000))
        // The anchor stays: a mapped instant does not move with noise.
        XCTAssertEqual(mapping.capture(forRealtime: base + 12_000_000_000), .nanoseconds(12_000_000_000))
        // 400 µs more over 10 s is within the kernel's slew (5 ms at 500 ppm): drift, not a step; still steady.
        XCTAssertEqual(mapping.update(reading(capture: 21_000_000_000, offset: base + 403_000)),
                       .steady(driftNanoseconds: 403_000))
        // Past the drift limit (1 ms) over a long time: drifted, anchor kept until reanchor().
        XCTAssertEqual(mapping.update(reading(capture: 41_000_000_000, offset: base + 1_403_000)),
                       .drifted(driftNanoseconds: 1_403_000))
        mapping.reanchor()
        XCTAssertEqual(mapping.driftNanoseconds, 0)
        XCTAssertEqual(mapping.capture(forRealtime: base + 50_000_000_000), .nanoseconds(50_000_000_000 - 1_403_000))
        // chrony's makestep: the shared clock jumps back 2 s within 1 s of capture time.
        XCTAssertEqual(mapping.update(reading(capture: 42_000_000_000, offset: base + 1_403_000 - 2_000_000_000)),
                       .stepped(byNanoseconds: -2_000_000_000))
        XCTAssertEqual(mapping.steps.map(\.byNanoseconds), [-2_000_000_000])
        XCTAssertEqual(mapping.steps.map(\.capture), [.nanoseconds(42_000_000_000)])
        XCTAssertEqual(mapping.capture(forRealtime: base + 50_000_000_000),
                       .nanoseconds(50_000_000_000 - 1_403_000 + 2_000_000_000))
        // A small step forward right after (1.5 ms in 10 ms): beyond what a slew could do.
        XCTAssertEqual(mapping.update(reading(capture: 42_010_000_000, offset: base + 1_403_000 - 2_000_000_000 + 1_500_000)),
                       .stepped(byNanoseconds: 1_500_000))
    }

    func testACaptureClockInAnotherTimescaleMapsExactly() {
        var mapping = SharedClockMapping()
        _ = mapping.update(ClockReading(realtimeNanoseconds: Self.realtimeBase, capture: MediaTime(value: 3600, timescale: 1)))
        XCTAssertEqual(mapping.capture(forRealtime: Self.realtimeBase + 500_000_000), MediaTime(value: 7201, timescale: 2))
    }

    func testNoiseAndDriftAreNeverStepsAndEveryStepIsFoundProperty() throws {
        var random = SeededGenerator(seed: 0x26)
        for _ in 0..<200 {
            var mapping = SharedClockMapping()
            var capture: Int64 = Int64.random(in: 0...1_000_000_000_000, using: &random)
            var trueOffset = Self.realtimeBase + Int64.random(in: -1_000_000_000...1_000_000_000, using: &random)
            let ppm = Int64.random(in: -100...100, using: &random)  // a drifting capture clock, ≤ 100 ppm
            var anchoredOffset = trueOffset
            var expectedSteps: [Int64] = []
            _ = mapping.update(ClockReading(realtimeNanoseconds: capture + trueOffset, capture: .nanoseconds(capture)))
            for _ in 0..<300 {
                let elapsed = Int64.random(in: 1_000_000...2_000_000_000, using: &random)
                capture += elapsed
                trueOffset += elapsed / 1_000_000 * ppm
                var step: Int64 = 0
                if random.next() % 40 == 0 {
                    step = Int64.random(in: 5_000_000...10_000_000_000, using: &random) * (Bool.random(using: &random) ? 1 : -1)
                    trueOffset += step
                    expectedSteps.append(step)
                }
                let noise = Int64.random(in: 0...20_000, using: &random)
                let change = mapping.update(ClockReading(realtimeNanoseconds: capture + trueOffset + noise,
                                                         capture: .nanoseconds(capture)))
                if step != 0 {
                    guard case .stepped(let by) = change else { return XCTFail("step of \(step) ns not found: \(change)") }
                    XCTAssertLessThan(abs(by - step), 1_100_000, "step \(step) measured as \(by)")
                    anchoredOffset = trueOffset + noise
                } else if case .stepped(let by) = change {
                    return XCTFail("noise or drift taken for a step of \(by) ns (\(ppm) ppm)")
                }
                // The mapping places an instant within the drift since its anchor (plus the anchor's own noise).
                let mapped = try XCTUnwrap(mapping.capture(forRealtime: capture + trueOffset))
                let error = SharedClockMapping.nanoseconds(mapped) - capture
                XCTAssertLessThanOrEqual(abs(error), abs(trueOffset - anchoredOffset) + 20_000)
                if case .drifted = change {
                    mapping.reanchor()
                    anchoredOffset = trueOffset + noise
                }
            }
            XCTAssertEqual(mapping.steps.count, expectedSteps.count)
        }
    }
}
