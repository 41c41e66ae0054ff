import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// Audio is encoded off the encoder thread: `encodeAudio` hands the chunk to the pipeline's audio worker
/// and returns, so AAC does not delay the next picture handed to x264. Nothing is lost: `finish` waits for it.
final class AudioOffEncoderThreadTests: XCTestCase {
    func testEncodeAudioReturnsBeforeTheChunkIsEncodedAndFinishWaitsForIt() throws {
        try MovieWriterFixture.withPipeline("audio", width: 64, height: 48,
                                              audio: .init(sampleRate: 48_000, channels: 1, bitrate: 128_000)) { pipeline, partial in
            func size() -> Int { (try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0 }
            let header = size()
            // One minute of sound in one chunk: seconds of AAC work, far more than can happen between the call's return
            // and the next line. Encoded on the calling thread, it would all be muxed (~1 MB) by the time it returns.
            let minute = AudioChunk(pts: .zero, sampleRate: 48_000, channels: 1,
                                    samples: (0..<2_880_000).map { Int16(truncatingIfNeeded: ($0 * 37) % 20_000 - 10_000) })
            try pipeline.encodeAudio(minute)
            XCTAssertLessThan(size() - header, 100_000, "encodeAudio returned only after encoding the minute")
            try pipeline.encodeVideo(MovieWriterFixture.solidFrame(width: 64, height: 48, y: 80), at: .zero, keyframe: true)
            try pipeline.finish()
            XCTAssertGreaterThan(size() - header, 600_000, "the minute of AAC reached the file")
            XCTAssertGreaterThanOrEqual(pipeline.audio?.samplesWritten ?? 0, 2_880_000)
        }
    }
}
