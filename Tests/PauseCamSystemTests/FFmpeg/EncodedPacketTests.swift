import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The encoders hand out `EncodedPacket`s and know nothing of the muxer: a second packet stage plugs in beside the
/// first without touching the encoder, and the packets carry what a stage needs (stream, times, keyframe, bytes).
final class EncodedPacketTests: XCTestCase {
    func testTwoMuxerStagesFedTheSameEncodedPacketsWriteTheSameValidMovie() throws {
        let directory = try MovieWriterFixture.directory("packets")
        let settings = MovieWriterFixture.settings(audio: false, width: 160, height: 90)
        let encoder = try VideoEncoder(settings: settings, globalHeader: true)
        // Two muxers, each a stage of its own; the encoder is made once and knows neither.
        let stages = try ["one", "two"].map { name in
            let muxer = try PartialMovieMuxer(path: directory + "/\(name).mov", container: .mov)
            let stream = try muxer.addStream(from: encoder.context)
            try muxer.open(container: .mov)
            return PartialMuxerStage(muxer: muxer, videoStream: stream, audioStreams: [])
        }
        var packets: [EncodedPacket] = []
        let emit: (EncodedPacket) throws -> Void = { packet in
            packets.append(packet)
            for stage in stages { try stage.write(packet) }
        }
        let scaler = CanvasScaler(width: 160, height: 90)
        for index in 0..<30 {
            let canvas = try scaler.scale(MovieWriterFixture.movingFrame(width: 160, height: 90, index: index))
            defer { scaler.recycle(canvas) }
            try encoder.encode(canvas, at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0,
                               emit: emit)
        }
        try encoder.flush(emit: emit)
        for stage in stages { try stage.finish() }

        XCTAssertEqual(packets.count, 30)
        XCTAssertTrue(packets.allSatisfy { $0.stream == .video && !$0.bytes.isEmpty && $0.duration > 0 })
        XCTAssertTrue(packets[0].isKeyframe, "the first packet starts a GOP")
        XCTAssertEqual(packets[0].timeBase.den, VideoEncoder.timescale)
        for (a, b) in zip(packets, packets.dropFirst()) { XCTAssertLessThan(a.dts, b.dts, "decode order") }
        // The stages took references, not the packets: each packet is unchanged after both wrote it.
        XCTAssertEqual(Set(packets.map(\.pts)).count, 30)

        let one = try Data(contentsOf: URL(fileURLWithPath: directory + "/one.mov"))
        let two = try Data(contentsOf: URL(fileURLWithPath: directory + "/two.mov"))
        XCTAssertEqual(one, two, "the same packets make the same file")
        let probed = try MovieWriterFixture.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                            directory + "/two.mov"])
        XCTAssertEqual(String(decoding: probed.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "30")
        XCTAssertEqual(probed.err, "")
    }
}
