import XCTest
@testable import PauseCamCore

/// `AudioDriftCorrector`: the first chunk placed, drift smoothed proportionally within 0.2 %, stalls beyond
/// 200 ms corrected at once and counted.
final class AudioDriftCorrectorTests: XCTestCase {
    func testTable() {
        var corrector = AudioDriftCorrector(sampleRate: 48_000)
        XCTAssertEqual(corrector.stallThreshold, 9600)
        typealias Row = (expected: Int64, position: Int64, correction: AudioDriftCorrector.Correction, why: String)
        let table: [Row] = [
            (720, 0, .placeFirst(silence: 720), "the first chunk sits at its time, silence before it"),
            (1200, 1200, .compensate(delta: 0, distance: 48_000), "in place: no stretch"),
            (1680, 1679, .compensate(delta: 1, distance: 48_000), "a sample behind: one more over a second"),
            (2160, 2208, .compensate(delta: -48, distance: 48_000), "1000 ppm fast for a second: 48 fewer"),
            (9000, 8000, .compensate(delta: 96, distance: 48_000), "far behind: at most 0.2 % (96 a second)"),
            (9000, 10_000, .compensate(delta: -96, distance: 48_000), "far ahead: at most 0.2 %"),
            (30_000, 20_400, .compensate(delta: 96, distance: 48_000), "exactly 200 ms: still drift"),
            (30_000, 20_399, .insertSilence(9601), "past 200 ms: a stall, filled at once"),
            (40_000, 50_000, .drop(10_000), "200 ms ahead and more: cut at once"),
        ]
        for row in table {
            XCTAssertEqual(corrector.correction(expected: row.expected, position: row.position), row.correction, row.why)
        }
        XCTAssertEqual(corrector.stalls, 2)
        XCTAssertEqual(corrector.silenceInserted, 9601)
        XCTAssertEqual(corrector.samplesDropped, 10_000)
    }

    /// A simulated microphone 1000 ppm fast or slow, corrected as libswresample would (each chunk's requested
    /// delta spread evenly over the next second): the offset settles near 1 ms and never reaches 5 ms.
    func testASteadyDriftSettlesWithinAFewMilliseconds() {
        for ppm in [1000.0, -1000.0, 20.0] {
            var corrector = AudioDriftCorrector(sampleRate: 48_000)
            var placed = 0.0  // output samples placed
            var worst = 0.0
            for chunk in 0..<60_000 {  // ten minutes of 10 ms chunks
                let expected = Double(chunk) * 480 / (1 + ppm / 1_000_000)  // the chunk's true time, in samples
                let correction = corrector.correction(expected: Int64(expected.rounded()), position: Int64(placed.rounded()))
                var ratio = 1.0
                switch correction {
                case .placeFirst(let silence): placed += Double(silence)
                case .compensate(let delta, let distance): ratio = 1 + Double(delta) / Double(distance)
                default: XCTFail("a steady drift of \(ppm) ppm is never a stall: \(correction)")
                }
                if chunk > 0 { worst = max(worst, abs(expected - placed)) }
                placed += 480 * ratio
            }
            XCTAssertLessThan(worst / 48, 5, "\(ppm) ppm: worst offset \(worst / 48) ms")
            XCTAssertEqual(corrector.stalls, 0)
        }
    }
}
