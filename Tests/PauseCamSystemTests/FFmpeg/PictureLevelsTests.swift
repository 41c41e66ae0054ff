import CFFmpeg
import Foundation
import PauseCamCore
import PauseCamVirtual
import XCTest
@testable import PauseCamSystem

/// Picture levels: full-range MJPEG and limited-range sources meet in one limited-range movie, in BT.709 for HD and
/// BT.601 for SD, and the movie says which range, matrix, primaries and transfer it uses.
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
        // SD, and HD where the canvas is converted to BT.709 afterwards: greys keep their levels through it.
        for (width, height) in [(320, 180), (1280, 720)] {
            let path = try movie("jpeg-levels-\(height)", frames: frames, width: width, height: height)
            let levels = try middleLuma(path, width: width, height: height)
            XCTAssertEqual(levels.count, 3)
            guard levels.count == 3 else { continue }
            XCTAssertEqual(levels[0], 16, accuracy: 2, "black at \(height) lines: \(levels)")
            XCTAssertTrue((126...130).contains(levels[1]), "mid-grey at \(height) lines: \(levels)")
            XCTAssertEqual(levels[2], 235, accuracy: 2, "white at \(height) lines: \(levels)")
        }
    }

    /// The movie says what it holds: limited range, and BT.709 matrix, primaries and transfer for an HD canvas (720
    /// lines and up), SMPTE 170M (BT.601) for SD. Before the HD canvas was converted to BT.709 its matrix was tagged
    /// SMPTE 170M at every size, which editors that assume BT.709 for HD ignore.
    func testMovieIsTaggedWithItsRangeAndColourStandard() throws {
        let cases: [(width: Int, height: Int, standard: String)] = [(1280, 720, "bt709"), (640, 480, "smpte170m")]
        for (width, height, standard) in cases {
            let frame = MovieWriterFixture.solidFrame(width: width, height: height, y: 100)
            let path = try movie("tags-\(height)", frames: [frame, frame], width: width, height: height)
            let stream = try MovieWriterFixture.probe(path, ["-select_streams", "v:0", "-show_streams"])["streams"]
                as? [[String: Any]] ?? []
            XCTAssertEqual(stream.first?["color_range"] as? String, "tv", "\(height) lines")
            XCTAssertEqual(stream.first?["color_space"] as? String, standard, "\(height) lines")
            XCTAssertEqual(stream.first?["color_primaries"] as? String, standard, "\(height) lines")
            XCTAssertEqual(stream.first?["color_transfer"] as? String, standard, "\(height) lines")
        }
    }

    /// One scaler alternating between a full-range frame (MJPEG) and a limited-range frame (YUYV, the virtual
    /// lens) of the same size and format, as an A/B lens switch does: each keeps its own levels, so black is black on
    /// both lenses (no contrast jump), and the two conversions live side by side in the cache.
    func testAlternatingRangesThroughOneScalerKeepEachFramesLevels() throws {
        let scaler = CanvasScaler(width: 320, height: 180)
        func lumaOf(y: UInt8, range: ColorRange) throws -> UInt8 {
            var frame = MovieWriterFixture.solidFrame(width: 320, height: 180, y: y)
            frame.range = range
            let picture = try scaler.scale(frame)
            defer { FFmpegFrame.release(picture) }
            let planes = CanvasScaler.planes(of: picture)
            return planes.data[0][90 * planes.stride[0] + 160]
        }
        for _ in 0..<3 {
            XCTAssertEqual(Int(try lumaOf(y: 0, range: .full)), 16, accuracy: 1, "full-range black")
            XCTAssertEqual(Int(try lumaOf(y: 16, range: .limited)), 16, accuracy: 1, "limited-range black")
            XCTAssertEqual(Int(try lumaOf(y: 255, range: .full)), 235, accuracy: 1, "full-range white")
            XCTAssertEqual(Int(try lumaOf(y: 235, range: .limited)), 235, accuracy: 1, "limited-range white")
        }
        XCTAssertEqual(scaler.contexts.count, 2, "one context per range, reused")
    }

    /// The middle 16×16 pixels of the first frame of `path`, averaged and decoded to sRGB by ffmpeg, either with the
    /// matrix the movie is tagged with (`matrix` nil) or with `matrix` forced, as an editor that ignores tags does.
    private func middleColour(_ path: String, width: Int, height: Int, matrix: String? = nil) throws -> [UInt8] {
        let forced = matrix.map { ":in_color_matrix=\($0):in_range=tv" } ?? ""
        let (out, errors) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-i", path, "-frames:v", "1", "-vf",
            "crop=16:16:\(width / 2):\(height / 2),scale=1:1:flags=area\(forced),format=rgb24", "-f", "rawvideo",
            "-pix_fmt", "rgb24", "-",
        ])
        let rgb = [UInt8](out)
        XCTAssertEqual(rgb.count, 3, errors)
        return rgb
    }

    /// Virtual-lens colours (BT.601 limited: green #20c040, red #d03030, a grey) and the green as a full-range
    /// BT.601 JPEG, into an HD movie and an SD one: ffmpeg decodes the sRGB colour back within 6 per channel, both
    /// reading the tags and assuming what editors assume without them (BT.709 for HD, BT.601 for SD). Before the HD
    /// canvas was converted to BT.709, the decode that assumes BT.709 for HD came back with green off by about 20.
    func testColoursSurviveTheMatrixOfEitherCanvas() throws {
        let directory = try MovieWriterFixture.directory("colour-jpeg")
        let colours = [(name: "green", hex: "20c040"), (name: "red", hex: "d03030"), (name: "grey", hex: "8c8c8c")]
        for (width, height, assumed) in [(1280, 720, "bt709"), (640, 480, "bt601")] {
            var frames: [(String, RGBColor, VideoFrame)] = []
            for (name, hex) in colours {
                let colour = try XCTUnwrap(RGBColor(hex: "#" + hex))
                let (y, u, v) = TestPatternPainter.yuv(colour)
                frames.append(("virtual \(name)", colour,
                               MovieWriterFixture.solidFrame(width: width, height: height, y: y, u: u, v: v)))
            }
            let jpegPath = directory + "/colour-\(height).jpg"
            _ = try MovieWriterFixture.run("ffmpeg", [
                "-v", "error", "-y", "-f", "lavfi", "-i", "color=0x20c040:s=\(width)x\(height)", "-frames:v", "1",
                "-pix_fmt", "yuvj422p", "-q:v", "2", jpegPath,
            ])
            let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: jpegPath)))
            let decoded = try XCTUnwrap(try MJPEGDecoder().decode(jpeg, pts: .zero, lens: "mjpeg"))
            frames.append(("mjpeg green", RGBColor(red: 0x20, green: 0xc0, blue: 0x40), decoded))
            for (name, colour, frame) in frames {
                let path = try movie("colour-\(name.replacingOccurrences(of: " ", with: "-"))-\(height)",
                                     frames: [frame, frame], width: width, height: height)
                for matrix in [nil, assumed] {
                    let rgb = try middleColour(path, width: width, height: height, matrix: matrix)
                    guard rgb.count == 3 else { continue }
                    let what = "\(name) at \(width)x\(height), matrix \(matrix ?? "from the tag"): \(rgb)"
                    XCTAssertEqual(Int(rgb[0]), Int(colour.red), accuracy: 6, what)
                    XCTAssertEqual(Int(rgb[1]), Int(colour.green), accuracy: 6, what)
                    XCTAssertEqual(Int(rgb[2]), Int(colour.blue), accuracy: 6, what)
                }
            }
        }
    }

    /// The thumbnail of an HD clip shows the lens's colour: its JPEG is BT.601 full range (JFIF), so the canvas's
    /// limited-range values are converted on the way, not reinterpreted.
    func testThumbnailOfAnHDClipKeepsTheColour() throws {
        let colour = RGBColor(red: 0x20, green: 0xc0, blue: 0x40)
        let (y, u, v) = TestPatternPainter.yuv(colour)
        let directory = try MovieWriterFixture.directory("thumbnail-hd")
        let settings = MovieWriterFixture.settings(audio: false, width: 1280, height: 720)
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: "thumbnail", settings: settings)
        let frame = MovieWriterFixture.solidFrame(width: 1280, height: 720, y: y, u: u, v: v)
        try sink.appendVideo(frame, at: .zero, keyframe: true)
        sink.setThumbnail(frame)
        let thumbnail = try XCTUnwrap(try sink.finish(chapters: []).thumbnailPath)
        let (out, errors) = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-i", thumbnail, "-vf", "crop=16:16:200:120,scale=1:1:flags=area", "-f", "rawvideo",
            "-pix_fmt", "rgb24", "-",
        ])
        let rgb = [UInt8](out)
        XCTAssertEqual(rgb.count, 3, errors)
        guard rgb.count == 3 else { return }
        XCTAssertEqual(Int(rgb[0]), Int(colour.red), accuracy: 6, "\(rgb)")
        XCTAssertEqual(Int(rgb[1]), Int(colour.green), accuracy: 6, "\(rgb)")
        XCTAssertEqual(Int(rgb[2]), Int(colour.blue), accuracy: 6, "\(rgb)")
    }

    /// The same levels through a UVC camera's path: a fake V4L2 device in MJPEG mode delivers the three JPEGs, the
    /// camera decodes them (range full), and the movie holds 16, ~128 and 235.
    func testMJPEGCameraFramesKeepTheirLevelsInTheMovie() throws {
        let directory = try MovieWriterFixture.directory("camera-levels")
        let jpegs = try [0, 128, 255].map { try jpeg(luma: $0, width: 64, height: 48, in: directory) }
        let device = V4L2FakeDevice(modes: [V4L2Mode(pixelFormat: .mjpeg, width: 64, height: 48,
                                                     rates: [FrameRate(30)])])
        var script: [V4L2FakeDevice.Dequeue] = []
        for (index, jpeg) in jpegs.enumerated() {
            script.append(.frame(V4L2DequeuedBuffer(index: UInt32(index), bytesUsed: jpeg.count,
                                                    flags: .timestampMonotonic, sequence: UInt32(index), seconds: 7,
                                                    microseconds: Int64(index) * 33_333), jpeg))
        }
        device.play(script + [.failure(ENODEV)])
        let camera = try V4L2Camera(device: device, lens: Rig.Lens(name: "wide", source: .camera(.device("x")),
                                                                  format: .mjpeg), warn: { _ in })
        let recorder = V4L2CameraRecorder()
        try camera.start(deliver: recorder.deliver, onEnd: recorder.onEnd)
        wait(for: [recorder.ended], timeout: 10)
        let frames = recorder.delivered
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(frames.map(\.range), [.full, .full, .full])
        let levels = try middleLuma(try movie("camera-levels", frames: frames), width: 320, height: 180)
        XCTAssertEqual(levels.count, 3)
        guard levels.count == 3 else { return }
        // 64x48 is 4:3: pillarboxed to 240x180 in the middle of the 320x180 canvas, so the middle half is picture.
        XCTAssertEqual(levels[0], 16, accuracy: 2, "black: \(levels)")
        XCTAssertTrue((126...130).contains(levels[1]), "mid-grey: \(levels)")
        XCTAssertEqual(levels[2], 235, accuracy: 2, "white: \(levels)")
    }

    /// The decoder's range rule as a table: a `yuvj` format is full range whatever its tag; otherwise the tag decides,
    /// and no tag means limited (a JPEG coded as ITU-R BT.601 decodes to plain `yuv422p`).
    func testDecodedRangeFollowsFormatThenTag() {
        let table: [(AVPixelFormat, AVColorRange, ColorRange)] = [
            (AV_PIX_FMT_YUVJ422P, AVCOL_RANGE_UNSPECIFIED, .full), (AV_PIX_FMT_YUVJ420P, AVCOL_RANGE_MPEG, .full),
            (AV_PIX_FMT_YUV422P, AVCOL_RANGE_JPEG, .full), (AV_PIX_FMT_YUV420P, AVCOL_RANGE_JPEG, .full),
            (AV_PIX_FMT_YUV422P, AVCOL_RANGE_MPEG, .limited), (AV_PIX_FMT_YUV422P, AVCOL_RANGE_UNSPECIFIED, .limited),
        ]
        for (format, tag, expected) in table {
            XCTAssertEqual(MJPEGDecoder.range(format: format, tag: tag), expected, "\(format) \(tag)")
        }
    }
}
