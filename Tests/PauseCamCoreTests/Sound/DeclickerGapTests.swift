import XCTest
@testable import PauseCamCore

/// A microphone that drops out mid-clip: the declicker fades the sound out where it stopped and in where it comes
/// back, so neither edge of the hole is a step.
final class DeclickerGapTests: XCTestCase {
    private func constant(at ms: Int64, frames: Int, value: Int16 = 10_000) -> AudioChunk {
        AudioChunk(pts: .milliseconds(ms), sampleRate: 48_000, channels: 1, samples: Array(repeating: value, count: frames))
    }

    func testAGapFadesTheTailOutAndTheNextPieceIn() {
        var declicker = Declicker(sampleRate: 48_000)
        XCTAssertEqual(declicker.fadeFrames, 240, "5 ms at 48 kHz")
        var out: [AudioChunk] = []
        // 100 ms of a constant level (its start fades in: the movie's start is a seam).
        for index in 0..<10 { out += declicker.process(constant(at: Int64(index) * 10, frames: 480)) }
        let beforeGap = out.flatMap(\.samples).count
        XCTAssertEqual(beforeGap, 4800 - 240, "the last 5 ms are held back")
        out += declicker.gap()
        let released = out.flatMap(\.samples)
        XCTAssertEqual(released.count, 4800, "the gap releases the held tail at once")
        XCTAssertEqual(released.last, 0, "faded out to silence at the hole")
        XCTAssertEqual(released[4800 - 240 - 1], 10_000, "untouched before the fade")
        XCTAssertLessThan(released[4800 - 120], 10_000, "fading")
        // The sound comes back 2 s later: it fades in.
        let back = declicker.process(constant(at: 2100, frames: 480)) + declicker.finish()
        let after = back.flatMap(\.samples)
        XCTAssertEqual(after.first, 0, "faded in from silence")
        XCTAssertEqual(after[240], 10_000, "full level after the fade")
        XCTAssertEqual(back.first?.pts, .milliseconds(2100), "no sample moved")
    }

    func testAGapWithNothingHeldReleasesNothing() {
        var declicker = Declicker(sampleRate: 48_000)
        XCTAssertTrue(declicker.gap().isEmpty)
        XCTAssertEqual(declicker.process(constant(at: 0, frames: 480)).flatMap(\.samples).first, 0)
    }
}
