import CFFmpeg
import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// Hot standby costs almost nothing: MJPEG sources hand out their JPEGs undecoded, and only the movie
/// writer decodes, once per picture that reaches the movie. JPEGs and movies are made with the `ffmpeg` command line
/// (Debian package `ffmpeg`).
final class StandbyDecodingTests: XCTestCase {
    /// A 64×48 JPEG of one full-range luma (0–255), neutral chroma, 4:2:2 like a webcam's.
    private func jpeg(luma: Int, in directory: String) throws -> [UInt8] {
        let path = directory + "/luma-\(luma).jpg"
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=black:s=64x48",
            "-vf", "format=yuvj422p,geq=lum=\(luma):cb=128:cr=128", "-frames:v", "1", "-pix_fmt", "yuvj422p", path,
        ])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertFalse(bytes.isEmpty, "ffmpeg made no JPEG: \(errors)")
        return bytes
    }

    private func frame(_ bytes: [UInt8], index: Int) -> VideoFrame {
        VideoFrame(pts: MediaTime(value: Int64(index), timescale: 30), width: 64, height: 48, format: .jpeg,
                   planes: [Plane(bytes: bytes, stride: 0)], lens: "wide", range: .full)
    }

    /// The luma at the centre of each frame of the movie at `path` (64×48 canvas, so no bars).
    private func centreLuma(_ path: String) throws -> [Int] {
        let (out, errors) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0",
                                                                  "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let size = 64 * 48 * 3 / 2
        XCTAssertEqual(out.count % size, 0, "ffmpeg: \(errors)")
        let bytes = [UInt8](out)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Int(bytes[$0 + 24 * 64 + 32]) }
    }

    /// An MJPEG `file:` lens delivers each packet as it is in the file: a `jpeg` frame, not decoded pixels. Before
    /// this change it decoded every frame to yuv422p, whether the lens was active or not.
    func testAnMJPEGFileLensHandsOutItsJPEGsUndecoded() throws {
        let path = try FileLensTests.twoColourMovie(codec: ["-c:v", "mjpeg", "-q:v", "2"], name: "standby.mov")
        let serialContext = SimulatedSerialContext()
        let lens = try FileLens(path: path, lens: "wide", loop: false, serialContext: serialContext)
        XCTAssertEqual(lens.format.pixelFormat, .jpeg)
        let frames = try FileLensTests.run(lens, on: serialContext, seconds: 1).frames
        XCTAssertEqual(frames.count, 15)
        for frame in frames {
            XCTAssertEqual(frame.format, .jpeg)
            XCTAssertEqual(frame.planes.count, 1)
            XCTAssertEqual(Array(frame.planes[0].bytes.prefix(2)), [0xFF, 0xD8], "a JPEG's start of image")
            XCTAssertLessThan(frame.planes[0].bytes.count, 160 * 120 * 2, "compressed, smaller than its pixels")
        }
    }

    /// The scaler decodes a JPEG at most once however often the output clock repeats it, and a new JPEG again.
    func testTheScalerDecodesARepeatedJPEGOnce() throws {
        let directory = try MovieWriterFixture.directory("standby-scaler")
        let white = frame(try jpeg(luma: 255, in: directory), index: 0)
        let black = frame(try jpeg(luma: 0, in: directory), index: 1)
        let counter = CanvasCounter()
        let scaler = CanvasScaler(width: 64, height: 48, hooks: counter)
        func centre(_ frame: VideoFrame) throws -> UInt8 {
            var picture: UnsafeMutablePointer<AVFrame>? = try scaler.scale(frame)
            defer { av_frame_free(&picture) }
            let planes = CanvasScaler.planes(of: picture!)
            return planes.data[0][24 * planes.stride[0] + 32]
        }
        XCTAssertEqual(Int(try centre(white)), 235, accuracy: 2)
        XCTAssertEqual(Int(try centre(white)), 235, accuracy: 2)
        XCTAssertEqual(counter.decodedJPEGs, 1, "the repeat reuses the decoded picture")
        XCTAssertEqual(Int(try centre(black)), 16, accuracy: 2)
        XCTAssertEqual(counter.decodedJPEGs, 2)
    }

    /// A JPEG that starts right but does not decode (a torn USB transfer) repeats the picture before it: the movie
    /// keeps every slot and its constant rate, and the writer does not fail.
    func testAJPEGThatDoesNotDecodeRepeatsThePreviousPicture() throws {
        let directory = try MovieWriterFixture.directory("standby-torn")
        let white = try jpeg(luma: 255, in: directory)
        let black = try jpeg(luma: 0, in: directory)
        let torn: [UInt8] = [0xFF, 0xD8] + [UInt8](repeating: 0x11, count: 40)
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: "torn",
                                                      settings: MovieWriterFixture.settings(audio: false, width: 64,
                                                                                            height: 48))
        for (index, bytes) in [white, torn, black].enumerated() {
            try sink.appendVideo(frame(bytes, index: index), at: MediaTime(value: Int64(index), timescale: 30),
                                 keyframe: index == 0)
        }
        let levels = try centreLuma(try sink.finish(chapters: []).path)
        XCTAssertEqual(levels.count, 3, "every slot is in the movie: \(levels)")
        guard levels.count == 3 else { return }
        XCTAssertEqual(levels[0], 235, accuracy: 2)
        XCTAssertEqual(levels[1], 235, accuracy: 2, "the torn JPEG repeats the white picture")
        XCTAssertEqual(levels[2], 16, accuracy: 2)
    }
}
