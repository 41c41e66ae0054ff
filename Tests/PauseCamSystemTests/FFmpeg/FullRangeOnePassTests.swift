import CFFmpeg
import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// A camera's decoded JPEG at the canvas's size is drawn in one pass (`FullRangePictureConverter`) in optimized
/// builds, instead of libswscale's range conversion and then the matrix pass: the two canvases agree (real JPEGs
/// of both subsamplings, HD and SD canvases), the one pass is what `CanvasScaler` takes where it should, and a
/// zoomed JPEG still goes through libswscale.
final class FullRangeOnePassTests: XCTestCase {
    /// A `width`×`height` JPEG of ffmpeg's `testsrc2` (colour bars, gradients, moving shapes) in `pixelFormat`.
    static func jpeg(_ pixelFormat: String, width: Int, height: Int) throws -> [UInt8] {
        let directory = try MovieWriterFixture.directory("full-range-one-pass")
        let path = directory + "/\(pixelFormat)-\(width)x\(height).jpg"
        _ = try MovieWriterFixture.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height)", "-frames:v", "1",
            "-pix_fmt", pixelFormat, "-q:v", "2", path,
        ])
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Per plane, how many samples differ between two canvases and by at most how much.
    static func differences(_ a: UnsafeMutablePointer<AVFrame>, _ b: UnsafeMutablePointer<AVFrame>, width: Int,
                            height: Int) -> [(differing: Int, worst: Int, total: Int)] {
        let p = CanvasScaler.planes(of: a), q = CanvasScaler.planes(of: b)
        return (0..<3).map { plane in
            let (w, h) = plane == 0 ? (width, height) : (width / 2, height / 2)
            var differing = 0, worst = 0
            for row in 0..<h {
                for x in 0..<w {
                    let d = abs(Int(p.data[plane][row * p.stride[plane] + x]) - Int(q.data[plane][row * q.stride[plane] + x]))
                    if d > 0 { differing += 1 }
                    worst = max(worst, d)
                }
            }
            return (differing, worst, w * h)
        }
    }

    /// The one pass and libswscale-then-matrix give the same canvas within a few code values (the two round at
    /// different steps, and libswscale works on 15-bit intermediates), and nearly every luma sample within 1.
    func testOnePassAgreesWithLibswscaleAndTheMatrixPass() throws {
        for pixelFormat in ["yuvj422p", "yuvj420p"] {
            for (width, height) in [(1280, 720), (640, 480)] {
                let jpeg = try Self.jpeg(pixelFormat, width: width, height: height)
                let frame = VideoFrame(pts: .zero, width: width, height: height, format: .jpeg,
                                       planes: [Plane(bytes: jpeg, stride: jpeg.count)], lens: "main")
                let onePass = CanvasScaler(width: width, height: height)
                onePass.drawsFullRangeInOnePass = true
                let twoPasses = CanvasScaler(width: width, height: height)
                twoPasses.drawsFullRangeInOnePass = false
                let a = try onePass.scale(frame)
                defer { FFmpegFrame.release(a) }
                let b = try twoPasses.scale(frame)
                defer { FFmpegFrame.release(b) }
                let what = "\(pixelFormat) at \(width)x\(height)"
                for (plane, figures) in Self.differences(a, b, width: width, height: height).enumerated() {
                    XCTAssertLessThanOrEqual(figures.worst, plane == 0 ? 2 : 3, "\(what), plane \(plane): \(figures)")
                    XCTAssertEqual(figures.total, plane == 0 ? width * height : width * height / 4)
                }
                // Within one code value nearly everywhere (the planes differ at most by rounding).
                let p = CanvasScaler.planes(of: a), q = CanvasScaler.planes(of: b)
                var far = 0
                for row in 0..<height {
                    for x in 0..<width where abs(Int(p.data[0][row * p.stride[0] + x]) - Int(q.data[0][row * q.stride[0] + x])) > 1 {
                        far += 1
                    }
                }
                XCTAssertLessThan(Double(far) / Double(width * height), 0.01, "\(what): \(far) luma samples off by 2")
            }
        }
    }

    /// A full-range grey ramp (made in memory, no JPEG) lands on an HD canvas through the one pass as
    /// 16 + 219·Y/255, rounded, with Cb and Cr 128.
    func testAFullRangeGreyRampLandsOnTheLimitedRange() throws {
        let width = 1280, height = 720
        let luma = (0..<(width * height)).map { UInt8(($0 % width) * 255 / (width - 1)) }
        let chroma = [UInt8](repeating: 128, count: width / 2 * height)
        let frame = VideoFrame(pts: .zero, width: width, height: height, format: .yuv422p,
                               planes: [Plane(bytes: luma, stride: width), Plane(bytes: chroma, stride: width / 2),
                                        Plane(bytes: chroma, stride: width / 2)],
                               lens: "main", range: .full)
        let scaler = CanvasScaler(width: width, height: height)
        scaler.drawsFullRangeInOnePass = true
        let picture = try scaler.scale(frame)
        defer { FFmpegFrame.release(picture) }
        let planes = CanvasScaler.planes(of: picture)
        for x in stride(from: 0, to: width, by: 7) {
            let y = Double(luma[x])
            XCTAssertEqual(Int(planes.data[0][360 * planes.stride[0] + x]), Int((16 + y * 219 / 255 + 0.5).rounded(.down)),
                           "luma at x \(x)")
        }
        XCTAssertEqual(planes.data[1][100 * planes.stride[1] + 10], 128)
        XCTAssertEqual(planes.data[2][100 * planes.stride[2] + 10], 128)
    }

    /// A zoomed (cropped) JPEG is scaled, so it goes through libswscale whatever the setting: the same canvas with
    /// the one pass allowed and not.
    func testAZoomedJPEGStillGoesThroughLibswscale() throws {
        let jpeg = try Self.jpeg("yuvj422p", width: 1280, height: 720)
        var frame = VideoFrame(pts: .zero, width: 1280, height: 720, format: .jpeg,
                               planes: [Plane(bytes: jpeg, stride: jpeg.count)], lens: "main")
        frame.crop = PixelRect(x: 320, y: 180, width: 640, height: 360)
        let allowed = CanvasScaler(width: 1280, height: 720)
        allowed.drawsFullRangeInOnePass = true
        let refused = CanvasScaler(width: 1280, height: 720)
        refused.drawsFullRangeInOnePass = false
        let a = try allowed.scale(frame)
        defer { FFmpegFrame.release(a) }
        let b = try refused.scale(frame)
        defer { FFmpegFrame.release(b) }
        for figures in Self.differences(a, b, width: 1280, height: 720) {
            XCTAssertEqual(figures.differing, 0)
        }
    }
}
