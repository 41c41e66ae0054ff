import Foundation
import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// The virtual microphone's test signals (README, "The virtual lens and microphone"): `tone`, `drift_ppm`, `level`.
/// The sound end-to-end tests rely on them to find clicks, drift and silence in decoded movies.
final class VirtualMicrophoneSignalTests: XCTestCase {
    func samples(_ microphone: VirtualMicrophone, from first: Int64, count: Int) -> [Int16] {
        var samples: [Int16] = []
        var next = first
        while samples.count < count {
            samples += microphone.chunk(startingAt: next).samples
            next += microphone.chunkFrames
        }
        return Array(samples.prefix(count))
    }

    func testAVoiceThatTalksPlaysItsPitchInItsSpansAndNothingBetween() {
        let microphone = VirtualMicrophone(serialContext: SimulatedSerialContext(), beepFrequency: 700,
                                           speech: [MediaTime.seconds(1)..<MediaTime.seconds(2)])
        let talk = samples(microphone, from: 48_000, count: 48_000)
        let peak = Double(talk.map { abs(Int($0)) }.max() ?? 0)
        XCTAssertEqual(20 * log10(peak / 32768), -12, accuracy: 0.05, "talks at −12 dBFS")
        let crossings = zip(talk, talk.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        XCTAssertEqual(Double(crossings) / 2, 700, accuracy: 2, "at its own pitch")
        XCTAssertEqual(Set(samples(microphone, from: 2 * 48_000, count: 48_000)), [0], "silent between (no beeps)")
        XCTAssertEqual(Set(samples(microphone, from: 0, count: 48_000)), [0], "silent before")
    }

    func testToneIsAContinuousSineAtMinusTwelveDBFSWithoutBeeps() {
        let microphone = VirtualMicrophone(serialContext: SimulatedSerialContext(), tone: 440)
        let second = samples(microphone, from: 3 * 48_000 - 7, count: 48_000)
        let peak = Double(second.map { abs(Int($0)) }.max() ?? 0)
        XCTAssertEqual(20 * log10(peak / 32768), -12, accuracy: 0.05)
        let crossings = zip(second, second.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        XCTAssertEqual(Double(crossings) / 2, 440, accuracy: 2, "440 Hz, no 1 kHz beep")
        // Continuous across every chunk boundary: no step larger than the sine's own steepest.
        let steepest = VirtualMicrophone.toneAmplitude * 2 * Double.pi * 440 / 48_000
        let largest = zip(second, second.dropFirst()).map { abs(Int($1) - Int($0)) }.max() ?? 0
        XCTAssertLessThanOrEqual(Double(largest), steepest + 1)
    }

    func testDriftMakesTheSampleClockFastOrSlowAgainstTheSessionClock() {
        let fast = VirtualSoundClock(nominalRate: 48_000, ppm: 1000)
        // 60 s of session time hold 60 × 48048 samples at +1000 ppm.
        XCTAssertEqual(fast.time(ofSample: 60 * 48_048), .seconds(60))
        XCTAssertEqual(fast.firstSample(atOrAfter: .seconds(60)), 60 * 48_048)
        let slow = VirtualSoundClock(nominalRate: 48_000, ppm: -1000)
        XCTAssertEqual(slow.time(ofSample: 60 * 47_952), .seconds(60))
        XCTAssertEqual(slow.firstSample(atOrAfter: .seconds(60) + .milliseconds(1)), 60 * 47_952 + 48)
        let none = VirtualSoundClock(nominalRate: 48_000, ppm: 0)
        XCTAssertEqual(none.time(ofSample: 480), MediaTime(value: 480, timescale: 48_000))
    }

    func testWithDriftTheBeepStillStartsAtEachWholeSecondOfTheSessionClock() {
        let microphone = VirtualMicrophone(serialContext: SimulatedSerialContext(), driftPPM: 1000)
        // Second 100 begins at sample 100 × 48048; the beep lasts 100 ms of session time.
        let start: Int64 = 100 * 48_048
        let around = samples(microphone, from: start - 480, count: 480 + 48_048)
        XCTAssertTrue(around[0..<480].allSatisfy { $0 == 0 }, "quiet before the second")
        XCTAssertEqual(around[480], 0, "the beep's sine starts at zero")
        XCTAssertNotEqual(around[481], 0)
        let loud = around.indices.filter { around[$0] != 0 }
        XCTAssertEqual(loud.last.map { $0 - 480 } ?? 0, 4805 - 1, accuracy: 2, "100 ms of a 48048 Hz clock")
        let chunk = microphone.chunk(startingAt: start)
        XCTAssertEqual(chunk.pts, .seconds(100))
    }

    func testLevelZeroIsSilentAndLevelScales() {
        let silent = VirtualMicrophone(serialContext: SimulatedSerialContext(), level: 0)
        XCTAssertTrue(samples(silent, from: 5 * 48_000, count: 9600).allSatisfy { $0 == 0 })
        let half = VirtualMicrophone(serialContext: SimulatedSerialContext(), tone: 440, level: 0.5)
        let peak = Double(samples(half, from: 0, count: 4800).map { abs(Int($0)) }.max() ?? 0)
        XCTAssertEqual(peak, VirtualMicrophone.toneAmplitude / 2, accuracy: 2)
    }

    func testTheMicrophoneDeliversOnItsOwnClock() {
        let serialContext = SimulatedSerialContext()
        let microphone = VirtualMicrophone(serialContext: serialContext, tone: 440, driftPPM: -1000)
        let chunks = ChunkBox()
        try? microphone.start(deliver: { chunk in chunks.append(chunk) }, onEnd: { _ in })
        serialContext.advance(until: serialContext.clock.now() + .seconds(10))
        microphone.stop()
        let delivered = chunks.all
        let frames = delivered.reduce(0) { $0 + $1.frameCount }
        // 10 s of a clock 1000 ppm slow: 479 520 samples (less the last chunk still being captured).
        XCTAssertEqual(Double(frames), 479_520, accuracy: 480)
        for (a, b) in zip(delivered, delivered.dropFirst()) {
            XCTAssertLessThan(a.pts, b.pts)
        }
    }
}

/// Chunks a microphone delivered, collected from its callback.
private final class ChunkBox: @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [AudioChunk] = []
    func append(_ chunk: AudioChunk) { lock.withLock { chunks.append(chunk) } }
    var all: [AudioChunk] { lock.withLock { chunks } }
}
