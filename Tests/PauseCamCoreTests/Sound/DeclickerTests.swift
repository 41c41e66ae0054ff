import XCTest
@testable import PauseCamCore

/// `Declicker`: raised-cosine fades at the start, at every seam and at the end; gains only, never a sample moved.
final class DeclickerTests: XCTestCase {
    static let rate: Int32 = 48_000

    /// `count` frames of a constant `value` starting at sample `first` of file time.
    func piece(_ first: Int64, _ count: Int, value: Int16 = 10_000, channels: Int = 1) -> AudioChunk {
        AudioChunk(pts: MediaTime(value: first, timescale: Self.rate), sampleRate: Self.rate, channels: channels,
                   samples: [Int16](repeating: value, count: count * channels))
    }

    /// Feeds `pieces` (a seam announced before the piece at each index in `seams`), finishes, and returns the
    /// released chunks.
    func run(_ pieces: [AudioChunk], seams: [Int: MediaTime] = [:], fade: MediaTime = .milliseconds(5)) -> [AudioChunk] {
        var declicker = Declicker(sampleRate: Self.rate, fade: fade)
        var out: [AudioChunk] = []
        for (index, piece) in pieces.enumerated() {
            if let seam = seams[index] { out += declicker.seam(at: seam) }
            out += declicker.process(piece)
        }
        return out + declicker.finish()
    }

    func testFadesInAtTheStartAndOutAtTheEndWithoutMovingASample() {
        let out = run([piece(0, 480), piece(480, 480), piece(960, 480)])
        XCTAssertEqual(out.reduce(0) { $0 + $1.frameCount }, 1440, "no sample added or lost")
        for (a, b) in zip(out, out.dropFirst()) { XCTAssertEqual(a.end, b.pts, "contiguous, in order") }
        XCTAssertEqual(out.first?.pts, .zero)
        let samples = out.flatMap(\.samples)
        XCTAssertEqual(samples[0], 0, "the first sample is silent")
        XCTAssertEqual(samples[120], 5000, "half way up at half the fade (240 frames = 5 ms)")
        XCTAssertTrue(samples[240..<1200].allSatisfy { $0 == 10_000 }, "untouched between the fades")
        XCTAssertEqual(samples[1439], 0, "the last sample is silent")
        XCTAssertEqual(samples[1439 - 120], 5000)
        XCTAssertTrue(zip(samples[0..<240], samples[1..<241]).allSatisfy { $0 <= $1 }, "the fade-in only rises")
    }

    func testAtASeamTheOldSegmentFadesOutAndTheNewOneFadesIn() {
        // Segment one: samples 0..<960; segment two from file time 960 (a seam), up to 1920.
        let out = run([piece(0, 480), piece(480, 480), piece(960, 480, value: -8000), piece(1440, 480, value: -8000)],
                      seams: [2: MediaTime(value: 960, timescale: Self.rate)])
        let samples = out.flatMap(\.samples)
        XCTAssertEqual(samples.count, 1920)
        XCTAssertEqual(samples[959], 0, "the old segment ends silent")
        XCTAssertEqual(samples[959 - 120], 5000)
        XCTAssertEqual(samples[960], 0, "the new one starts silent")
        XCTAssertEqual(samples[960 + 120], -4000)
        XCTAssertEqual(samples[960 + 240], -8000)
        XCTAssertEqual(samples[700], 10_000, "before the fade-out untouched")
        let steps = zip(samples, samples.dropFirst()).map { abs(Int($1) - Int($0)) }
        XCTAssertLessThan(steps.max() ?? 0, 80, "no step anywhere (10000 over a 240-frame raised cosine)")
    }

    func testTheResultDoesNotDependOnHowTheAudioWasChunked() {
        // Table: chunk sizes smaller than, equal to and larger than the fade; a seam at frame 2000.
        let total = 4000, seam = 2000
        var reference: [Int16]?
        for size in [1, 7, 100, 240, 480, 1000, 2000] {
            var pieces: [AudioChunk] = []
            var seams: [Int: MediaTime] = [:]
            var at = 0
            while at < total {
                let end = min(total, at + size, at < seam ? seam : total)
                if at == seam { seams[pieces.count] = MediaTime(value: Int64(seam), timescale: Self.rate) }
                pieces.append(piece(Int64(at), end - at, value: at < seam ? 12_000 : -3000))
                at = end
            }
            let samples = run(pieces, seams: seams).flatMap(\.samples)
            XCTAssertEqual(samples.count, total, "size \(size)")
            if let reference { XCTAssertEqual(samples, reference, "size \(size)") } else { reference = samples }
        }
        XCTAssertEqual(reference?[1999], 0)
        XCTAssertEqual(reference?[2000], 0)
    }

    func testOldAudioArrivingAfterTheSeamIsAnnouncedStillBelongsBeforeIt() {
        // The seam at 960 is announced, but the last old piece (480..<960) is released only after.
        var declicker = Declicker(sampleRate: Self.rate)
        var out = declicker.process(piece(0, 480))
        out += declicker.seam(at: MediaTime(value: 960, timescale: Self.rate))
        out += declicker.process(piece(480, 480))
        out += declicker.process(piece(960, 480))
        out += declicker.finish()
        let samples = out.flatMap(\.samples)
        XCTAssertEqual(samples[700], 10_000, "the late old piece is not faded as if the seam came before it")
        XCTAssertEqual(samples[959], 0)
        XCTAssertEqual(samples[960], 0)
    }

    func testStereoFadesBothChannelsAlikeAndASegmentShorterThanTheFadeStillEndsSilent() {
        let out = run([piece(0, 100, channels: 2), piece(100, 100, channels: 2)],
                      seams: [1: MediaTime(value: 100, timescale: Self.rate)])
        let samples = out.flatMap(\.samples)
        XCTAssertEqual(samples.count, 400)
        XCTAssertEqual(samples[198], 0)
        XCTAssertEqual(samples[199], 0)
        XCTAssertEqual(samples[200], 0)
        for frame in 0..<200 { XCTAssertEqual(samples[2 * frame], samples[2 * frame + 1]) }
    }
}
