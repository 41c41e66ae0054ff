import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// A movie whose pictures stay JPEG (`MovieSettings.VideoCoding.jpegPassThrough`, the ISO of an MJPEG lens): the
/// camera's JPEGs go into the `.partial` byte for byte; the slate and a JPEG of another size are encoded as JPEG,
/// the slate once however long it is held; and the fragments last half a second, not one frame each.
final class JPEGPassThroughTests: XCTestCase {
    /// A 320x240 JPEG of one flat grey made by the ffmpeg command line, as a webcam sends it (yuvj422p); its path
    /// and bytes.
    private func jpeg(luma: Int, width: Int = 320, height: Int = 240, in directory: String) throws -> (String, [UInt8]) {
        let path = directory + "/luma-\(luma)-\(width).jpg"
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=black:s=\(width)x\(height)",
            "-vf", "format=yuvj422p,geq=lum=\(luma):cb=128:cr=128", "-frames:v", "1", "-pix_fmt", "yuvj422p",
            "-q:v", "3", path,
        ])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertFalse(bytes.isEmpty, "ffmpeg made no JPEG: \(errors)")
        return (path, bytes)
    }

    private func frame(_ bytes: [UInt8], width: Int = 320, height: Int = 240) -> VideoFrame {
        VideoFrame(pts: .zero, width: width, height: height, format: .jpeg, planes: [Plane(bytes: bytes, stride: 0)],
                   lens: "film", range: .full)
    }

    /// The MD5 of every video packet of `path` as stored.
    private func packetHashes(_ path: String) throws -> [String] {
        let (out, errors) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-c", "copy",
                                                                  "-f", "framemd5", "-"])
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertFalse(lines.isEmpty, errors)
        return lines.compactMap { $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) }
    }

    func testTheCamerasJPEGsGoInAsTheyCameAndTheSlateIsEncodedOnce() throws {
        let folder = try MovieWriterFixture.directory("jpeg-pass")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (darkPath, dark) = try jpeg(luma: 60, in: folder)
        let (lightPath, light) = try jpeg(luma: 200, in: folder)
        let (_, small) = try jpeg(luma: 120, width: 160, height: 120, in: folder)
        var settings = MovieWriterFixture.settings(audio: false, width: 320, height: 240)
        settings.videoCoding = .jpegPassThrough
        let partial = folder + "/film.mov.partial"
        let pipeline = try EncodingPipeline(partialPath: partial, settings: settings)
        XCTAssertNil(pipeline.video, "no x264 for a movie of JPEGs")
        let jpegs = try XCTUnwrap(pipeline.jpegs)
        let slate = NoSignalSlate.frame(width: 320, height: 240, lens: "film", lostAt: .zero, pts: .zero)
        // Three slots of slate, the dark JPEG held for two, the light one and a dropped picture's repeat, a JPEG of
        // another size, then 60 frames alternating dark and light.
        var pictures = [slate, slate, slate, frame(dark), frame(dark), frame(light)]
        var index: Int64 = 0
        func time() -> MediaTime { MediaTime(value: index, timescale: 30) }
        for picture in pictures {
            try pipeline.encodeVideo(picture, at: time(), keyframe: index == 0)
            index += 1
        }
        try pipeline.repeatVideo(at: time())
        index += 1
        try pipeline.encodeVideo(frame(small, width: 160, height: 120), at: time(), keyframe: false)
        index += 1
        pictures = (0..<60).map { frame($0 % 2 == 0 ? dark : light) }
        for picture in pictures {
            try pipeline.encodeVideo(picture, at: time(), keyframe: false)
            index += 1
        }
        try pipeline.finish()

        XCTAssertEqual(jpegs.picturesEncoded, 2, "the slate once, the JPEG of another size once")
        XCTAssertEqual(pipeline.videoFramesWritten, 68)
        let hashes = try packetHashes(partial)
        let darkHash = try XCTUnwrap(try packetHashes(darkPath).first)
        let lightHash = try XCTUnwrap(try packetHashes(lightPath).first)
        XCTAssertEqual(hashes.count, 68)
        XCTAssertEqual(Set(hashes.prefix(3)).count, 1, "the held slate is one JPEG")
        XCTAssertFalse([darkHash, lightHash].contains(hashes[0]))
        XCTAssertEqual(Array(hashes[3..<8]), [darkHash, darkHash, lightHash, lightHash, hashes[7]])
        XCTAssertFalse([darkHash, lightHash].contains(hashes[7]), "the small JPEG was drawn at the movie's size")
        XCTAssertEqual(Array(hashes[8...]), (0..<60).map { $0 % 2 == 0 ? darkHash : lightHash })

        let streams = try MovieWriterFixture.probe(partial, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
        XCTAssertEqual(streams.first?["codec_name"] as? String, "mjpeg")
        XCTAssertEqual(streams.first?["width"] as? Int, 320)
        let keyframes = try MovieWriterFixture.frames(partial, stream: "v:0", entries: "key_frame")
        XCTAssertEqual(keyframes.count, 68)
        XCTAssertTrue(keyframes.allSatisfy { $0["key_frame"] as? Int == 1 }, "every frame a keyframe")
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", partial, "-f", "null", "-"])
        XCTAssertEqual(errors, "", "every packet decodes")

        // 68 frames are 2.27 s: about five half-second fragments, not one per keyframe.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: partial))
        var fragments = 0
        var searchFrom = bytes.startIndex
        while let found = bytes.range(of: Data("moof".utf8), in: searchFrom..<bytes.endIndex) {
            fragments += 1
            searchFrom = found.upperBound
        }
        XCTAssertGreaterThan(fragments, 2)
        XCTAssertLessThanOrEqual(fragments, 6, "fragments of half a second")
    }
}
