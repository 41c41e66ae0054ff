import XCTest
@testable import PauseCamCore

/// A resampler that passes frames through unchanged (equal rates; compensation ignored), so the desk's placing,
/// waiting, splitting and mixing can be checked sample by sample.
private final class PassThrough: SoundResampler {
    var delay: Int64 { 0 }
    func setCompensation(delta: Int, distance: Int) throws {}
    func convert(_ samples: [Int16]) throws -> [Int16] { samples }
}

private struct PassThroughMaker: SoundResamplerMaking {
    func makeResampler(inputRate: Int32, channels: Int, outputRate: Int32) throws -> any SoundResampler {
        PassThrough()
    }
}

final class VoiceDeskTests: XCTestCase {
    private func chunk(at frame: Int64, frames: Int, channels: Int = 1, value: (Int, Int) -> Int16) -> AudioChunk {
        var samples: [Int16] = []
        for n in 0..<frames { for c in 0..<channels { samples.append(value(n, c)) } }
        return AudioChunk(pts: MediaTime(value: frame, timescale: 48_000), sampleRate: 48_000, channels: channels,
                          samples: samples)
    }

    private func frames(_ chunks: [AudioChunk]) -> Int { chunks.reduce(0) { $0 + $1.frameCount } }

    func testTwoVoicesOnTwoChannelsOfOneCardAreSplitAndTheMixHoldsBoth() throws {
        let voices = [Rig.Voice(name: "host", source: .alsa("hw:1"), channel: 1),
                      Rig.Voice(name: "guest", source: .alsa("hw:1"), channel: 2, pan: 1)]
        var desk = VoiceDesk(voices: voices, resamplers: PassThroughMaker())
        XCTAssertEqual(desk.plan.cards.count, 1, "one card, opened once")
        let out = try desk.add(chunk(at: 480, frames: 480, channels: 2) { _, c in c == 0 ? 1000 : -2000 },
                               card: 0, recording: true)
        XCTAssertEqual(frames(out), 480)
        let first = try XCTUnwrap(out.first)
        XCTAssertEqual(first.channels, 4)
        XCTAssertEqual(first.pts, MediaTime(value: 480, timescale: 48_000))
        XCTAssertEqual(first.samples[2], 1000, "host's track")
        XCTAssertEqual(first.samples[3], -2000, "guest's track")
        // host centred (−3 dB each side), guest panned hard right.
        XCTAssertEqual(Int(first.samples[0]), Int((1000 * cos(Double.pi / 4)).rounded()))
        XCTAssertEqual(Int(first.samples[1]), Int((1000 * sin(Double.pi / 4) - 2000).rounded()))
    }

    func testACardWaitsForTheOtherUpToTheLagThenGoesOnWithSilenceForIt() throws {
        let voices = [Rig.Voice(name: "host", source: .virtual), Rig.Voice(name: "guest", source: .virtual)]
        var desk = VoiceDesk(voices: voices, resamplers: PassThroughMaker())
        XCTAssertTrue(try desk.add(chunk(at: 0, frames: 480) { _, _ in 100 }, card: 0, recording: true).isEmpty,
                      "the guest's card has not been heard from: the host's sound waits")
        var out = try desk.add(chunk(at: 0, frames: 480) { _, _ in 200 }, card: 1, recording: true)
        XCTAssertEqual(frames(out), 480)
        XCTAssertEqual(out[0].samples[2], 100)
        XCTAssertEqual(out[0].samples[3], 200)
        // The guest falls silent (no chunks): the host goes on once it is more than the lag ahead.
        out = []
        var frame: Int64 = 480
        while frame < 48_000 {
            out += try desk.add(chunk(at: frame, frames: 480) { _, _ in 100 }, card: 0, recording: true)
            frame += 480
        }
        let lag = Int(VoiceDesk.maximumLag.seconds * 48_000)
        XCTAssertEqual(frames(out), 48_000 - 480 - lag)
        XCTAssertTrue(out.allSatisfy { chunk in stride(from: 3, to: chunk.samples.count, by: 4).allSatisfy { chunk.samples[$0] == 0 } },
                      "the late guest is silence")
        // Gone: nothing waits for it any more.
        out = desk.cardEnded(1, recording: true)
        XCTAssertEqual(frames(out), lag)
        XCTAssertTrue(desk.isGone(voice: 1))
    }

    func testAVoiceBackAfterItsCardEndedIsToldAndPlacedAtItsOwnTime() throws {
        let voices = [Rig.Voice(name: "host", source: .virtual), Rig.Voice(name: "guest", source: .virtual)]
        var desk = VoiceDesk(voices: voices, resamplers: PassThroughMaker())
        var out: [AudioChunk] = []
        out += try desk.add(chunk(at: 0, frames: 4_800) { _, _ in 100 }, card: 0, recording: true)
        out += try desk.add(chunk(at: 0, frames: 4_800) { _, _ in 200 }, card: 1, recording: true)
        out += desk.cardEnded(1, recording: true)
        out += try desk.add(chunk(at: 4_800, frames: 4_800) { _, _ in 100 }, card: 0, recording: true)
        _ = desk.takeHappenings()
        out += try desk.add(chunk(at: 9_600, frames: 4_800) { _, _ in 200 }, card: 1, recording: true)
        XCTAssertEqual(desk.takeHappenings(), [.cameBack(voice: 1)])
        out += try desk.add(chunk(at: 9_600, frames: 4_800) { _, _ in 100 }, card: 0, recording: true)
        out += desk.flush(recording: true)
        var guest: [Int16] = []
        for chunk in out { guest += stride(from: 3, to: chunk.samples.count, by: 4).map { chunk.samples[$0] } }
        XCTAssertEqual(guest.count, 14_400)
        XCTAssertEqual(Set(guest[0..<4_800]), [200])
        XCTAssertEqual(Set(guest[4_800..<9_600]), [0], "silence while its microphone was gone")
        XCTAssertEqual(Set(guest[9_600...]), [200], "back at its own capture time")
    }

    func testGainMuteAndClippingAreTheVoicesOwn() throws {
        var desk = VoiceDesk(voices: [Rig.Voice(name: "host", source: .virtual, gainDecibels: 6)],
                             resamplers: PassThroughMaker())
        var out = try desk.add(chunk(at: 0, frames: 480) { _, _ in 20_000 }, card: 0, recording: true)
        XCTAssertEqual(out[0].samples[2], 32_767, "+6 dB of 20000 clips")
        XCTAssertEqual(desk.takeHappenings(), [.clipping(voice: 0, samples: 480)])
        desk.setMuted(true, voice: 0)
        desk.setGain(0, voice: 0)
        out = try desk.add(chunk(at: 480, frames: 480) { _, _ in 1_000 }, card: 0, recording: true)
        XCTAssertEqual(out[0].samples[2], 1_000, "muted voices keep their track")
        XCTAssertEqual(out[0].samples[0], 0, "and leave the mix")
        XCTAssertTrue(desk.status(now: MediaTime(value: 960, timescale: 48_000))[0].muted)
        XCTAssertTrue(desk.status(now: MediaTime(value: 960, timescale: 48_000))[0].clipping)
    }
}
