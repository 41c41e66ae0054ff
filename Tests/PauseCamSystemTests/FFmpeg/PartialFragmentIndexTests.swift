import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The crash-safe `.partial` is written without a fragment index (with one, libavformat keeps 40 bytes per track
/// per 500 ms fragment in memory for the whole recording, only to write an `mfra` box at the end). The file
/// then ends like a killed recording's, with its last fragment, and still reads whole.
final class PartialFragmentIndexTests: XCTestCase {
    func testThePartialHasNoFragmentIndexAndReadsWhole() throws {
        try MovieWriterFixture.withPipeline("fragments", width: 64, height: 48,
                                              audio: .init(sampleRate: 48_000, channels: 1, bitrate: 64_000)) { pipeline, partial in
            for index in 0..<90 {  // 3 s: six fragments per track
                let time = MediaTime(value: Int64(index), timescale: 30)
                try pipeline.encodeVideo(MovieWriterFixture.movingFrame(width: 64, height: 48, index: index), at: time,
                                         keyframe: index % 15 == 0)
                try pipeline.encodeAudio(AudioChunk(pts: MediaTime(value: Int64(index) * 1600, timescale: 48_000),
                                                    sampleRate: 48_000, channels: 1,
                                                    samples: [Int16](repeating: Int16(index * 100), count: 1600)))
            }
            try pipeline.finish()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: partial))
            XCTAssertNil(bytes.range(of: Data("mfra".utf8)), "no fragment index box")
            XCTAssertNotNil(bytes.range(of: Data("moof".utf8)), "a fragmented file")
            let probed = try MovieWriterFixture.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                                partial])
            XCTAssertEqual(String(decoding: probed.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "90")
        }
    }
}
