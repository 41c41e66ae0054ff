import CFFmpeg
import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// A camera's JPEG is drawn onto the canvas straight from libavcodec's buffers (no copy of the decoded
/// planes): the canvas is byte for byte what drawing a copy of the decoded picture gives, for both subsamplings,
/// with and without a zoom crop, and on an HD and an SD canvas.
final class JPEGDrawTests: XCTestCase {
    func testAJPEGIsDrawnAsItsDecodedCopyWouldBe() throws {
        let directory = try MovieWriterFixture.directory("jpeg-draw")
        for pixelFormat in ["yuvj422p", "yuvj420p"] {
            let path = directory + "/\(pixelFormat).jpg"
            _ = try MovieWriterFixture.run("ffmpeg", [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=1280x720", "-frames:v", "1",
                "-pix_fmt", pixelFormat, "-q:v", "3", path,
            ])
            let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let copy = try XCTUnwrap(try MJPEGDecoder().decode(jpeg, pts: .zero, lens: "main"))
            for crop in [nil, PixelRect(x: 322, y: 180, width: 640, height: 360)] {
                for (width, height) in [(1280, 720), (640, 360)] {
                    var compressed = VideoFrame(pts: .zero, width: 1280, height: 720, format: .jpeg,
                                                planes: [Plane(bytes: jpeg, stride: jpeg.count)], lens: "main")
                    compressed.crop = crop
                    var decoded = copy
                    decoded.crop = crop
                    let counter = CanvasCounter()
                    let scaler = CanvasScaler(width: width, height: height, hooks: counter)
                    let fromBuffers = try scaler.scale(compressed)
                    defer { FFmpegFrame.release(fromBuffers) }
                    let fromCopy = try CanvasScaler(width: width, height: height).scale(decoded)
                    defer { FFmpegFrame.release(fromCopy) }
                    XCTAssertEqual(counter.decodedJPEGs, 1)
                    let a = CanvasScaler.planes(of: fromBuffers), b = CanvasScaler.planes(of: fromCopy)
                    var differing = 0, total = 0
                    for plane in 0..<3 {
                        let (w, h) = plane == 0 ? (width, height) : (width / 2, height / 2)
                        for row in 0..<h {
                            for x in 0..<w where a.data[plane][row * a.stride[plane] + x]
                                != b.data[plane][row * b.stride[plane] + x] { differing += 1 }
                        }
                        total += w * h
                    }
                    XCTAssertEqual(differing, 0, "\(pixelFormat), crop \(String(describing: crop)), \(width)x\(height)")
                    XCTAssertEqual(total, width * height * 3 / 2)
                }
            }
        }
    }
}
