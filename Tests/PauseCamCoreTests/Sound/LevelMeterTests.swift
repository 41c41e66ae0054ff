import XCTest
@testable import PauseCamCore

/// `LevelMeter` (the prompt's live peak and the silence warning) and `SoundLevel` (a scene's peak and RMS).
final class LevelMeterTests: XCTestCase {
    /// 10 ms of a constant `value` ending at `endMs`.
    func chunk(endMs: Int64, value: Int16) -> AudioChunk {
        AudioChunk(pts: .milliseconds(endMs - 10), sampleRate: 48_000, channels: 1,
                   samples: [Int16](repeating: value, count: 480))
    }

    func testThePeakIsOfTheLast100Milliseconds() {
        var meter = LevelMeter()
        XCTAssertNil(meter.peak)
        _ = meter.add(chunk(endMs: 10, value: 16_384), recording: true)
        XCTAssertEqual(meter.peak, -6)
        for end in stride(from: 20, through: 100, by: 10) { _ = meter.add(chunk(endMs: Int64(end), value: 33), recording: true) }
        XCTAssertEqual(meter.peak, -6, "the loud chunk is still within 100 ms")
        _ = meter.add(chunk(endMs: 110, value: 33), recording: true)
        XCTAssertEqual(meter.peak, -59.9, "only quiet chunks in the window now")
    }

    func testSilenceIsWarnedOnceAfterFiveSecondsOfRecording() {
        var meter = LevelMeter()
        var warnings: [Int64] = []
        for end in stride(from: Int64(10), through: 20_000, by: 10) {
            let recording = end > 2000      // idle for 2 s (not counted), then recording
            let loud = (9000...9500).contains(end)  // a sound half way resets the watch
            if meter.add(chunk(endMs: end, value: loud ? 3000 : 20), recording: recording) { warnings.append(end) }
        }
        // Silent from 2.0 s: warned at 7.0 s; sound at 9.0–9.5 s; silent again from 9.5 s: warned at 14.5 s.
        XCTAssertEqual(warnings, [7000, 14_500])
    }

    func testSoundLevelPeakAndRMS() {
        var level = SoundLevel()
        XCTAssertNil(level.peak)
        level.add((0..<48_000).map { Int16((32_767 * sin(2 * Double.pi * 440 * Double($0) / 48_000)).rounded()) })
        XCTAssertEqual(level.peak, 0)
        XCTAssertEqual(level.rms, -3, "a full-scale sine")
        var silent = SoundLevel()
        silent.add([0, 0, 0])
        XCTAssertEqual(silent.peak, SoundLevel.floor)
        XCTAssertEqual(silent.rms, SoundLevel.floor)
    }
}
