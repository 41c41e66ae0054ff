import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// Picture levels: full-range MJPEG and limited-range sources meet in one limited-range movie, and the movie says
/// which range, matrix, primaries and transfer it uses.
final class PictureLevelsTests: XCTestCase {
    /// A `width`×`height` JPEG whose every pixel has luma `luma` (full range, 0–255) and neutral chroma, made by the
    /// `ffmpeg` command line in `yuvj422p`, as a webcam sends it.
    private func jpeg(luma: Int, width: Int = 320, height: Int = 180, in directory: String) throws -> [UInt8] {
        let path = directory + "/luma-\(luma).jpg"
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=black:s=\(width)x\(height)",
            "-vf", "format=yuvj422p,geq=lum=\(luma):cb=128:cr=128", "-frames:v", "1", "-pix_fmt", "yuvj422p",
            "-q:v", "2", path,
        ])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path), options: []))
        XCTAssertFalse(bytes.isEmpty, "ffmpeg made no JPEG: \(errors)")
        return bytes
    }

    /// The mean luma of the middle of every decoded frame of `path`, as stored (the movie's own range).
    private func middleLuma(_ path: String, width: Int, height: Int) throws -> [Double] {
        let (out, errors) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0",
                                                                  "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let frameSize = width * height * 3 / 2
        XCTAssertEqual(out.count % frameSize, 0, "ffmpeg: \(errors)")
        let bytes = [UInt8](out)
        return stride(from: 0, to: bytes.count - frameSize + 1, by: frameSize).map { start in
            var sum = 0, count = 0
            for row in (height / 4)..<(height * 3 / 4) {
                for column in (width / 4)..<(width * 3 / 4) {
                    sum += Int(bytes[start + row * width + column])
                    count += 1
                }
            }
            return Double(sum) / Double(count)
        }
    }

    /// Writes `frames` (one each 1/30 s, video only) into a movie of the given size and returns its path.
    private func movie(_ name: String, frames: [VideoFrame], width: Int = 320, height: Int = 180) throws -> String {
        let directory = try MovieWriterFixture.directory(name)
        let sink = try MovieWriterFactory().makeSink(
            directory: directory, baseName: name,
            settings: MovieWriterFixture.settings(audio: false, width: width, height: height))
        for (index, frame) in frames.enumerated() {
            try sink.appendVideo(frame, at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
        }
        return try sink.finish(chapters: []).path
    }

    /// Black, mid-grey and white JPEGs (full range 0, 128, 255) through the MJPEG decoder and the movie writer come
    /// out at limited-range 16, ~128 and 235. Before the range travelled with the frame they came out at 0, 128 and
    /// 255: shadows crushed and highlights clipped by every player.
    func testFullRangeMJPEGLevelsBecomeLimitedRangeInTheMovie() throws {
        let directory = try MovieWriterFixture.directory("jpeg-levels")
        let decoder = try MJPEGDecoder()
        var frames: [VideoFrame] = []
        for luma in [0, 128, 255] {
            let frame = try XCTUnwrap(decoder.decode(try jpeg(luma: luma, in: directory), pts: .zero, lens: "mjpeg"))
            XCTAssertEqual(frame.range, .full, "a JPEG decodes to full range (yuvj422p)")
            // FFmpeg's JPEG encoder lands a 128 at 130 (its DC quantization): close enough for a mid-grey.
            XCTAssertEqual(Int(frame.planes[0].bytes[90 * frame.planes[0].stride + 160]), luma, accuracy: 2,
                           "the JPEG holds the full-range level")
            frames.append(frame)
        }
        let levels = try middleLuma(try movie("jpeg-levels", frames: frames), width: 320, height: 180)
        XCTAssertEqual(levels.count, 3)
        guard levels.count == 3 else { return }
        XCTAssertEqual(levels[0], 16, accuracy: 2, "black: \(levels)")
        XCTAssertTrue((126...130).contains(levels[1]), "mid-grey: \(levels)")
        XCTAssertEqual(levels[2], 235, accuracy: 2, "white: \(levels)")
    }
}
