import CFFmpeg
import PauseCamCore
import PauseCamVirtual
import XCTest
@testable import PauseCamSystem

/// The canvas holds its own standard's values: BT.709 from 720 lines up, converted after libswscale only where the
/// picture is (the bars stay black), and BT.601 untouched below 720 lines.
final class CanvasMatrixTests: XCTestCase {
    /// The limited-range Y, Cb, Cr of an sRGB colour in a standard with luma weights `kr`, `kb`, from its equations.
    static func ycbcr(_ c: RGBColor, kr: Double, kb: Double) -> (y: Double, cb: Double, cr: Double) {
        let r = Double(c.red) / 255, g = Double(c.green) / 255, b = Double(c.blue) / 255
        let y = kr * r + (1 - kr - kb) * g + kb * b
        return (16 + 219 * y, 128 + 224 * (b - y) / (2 * (1 - kb)), 128 + 224 * (r - y) / (2 * (1 - kr)))
    }

    /// The canvas's Y, Cb, Cr at pixel (`x`, `y`).
    static func sample(_ picture: UnsafeMutablePointer<AVFrame>, x: Int, y: Int) -> (Int, Int, Int) {
        let planes = CanvasScaler.planes(of: picture)
        return (Int(planes.data[0][y * planes.stride[0] + x]), Int(planes.data[1][y / 2 * planes.stride[1] + x / 2]),
                Int(planes.data[2][y / 2 * planes.stride[2] + x / 2]))
    }

    /// A BT.601 virtual-lens colour scaled onto an HD canvas holds that colour's BT.709 values (within 2: the lens
    /// rounds its BT.601 values first); onto an SD canvas it keeps its BT.601 values. Before the conversion, the HD
    /// canvas held the BT.601 values (green's Y 127 instead of 137).
    func testHDCanvasHoldsBT709ValuesAndSDCanvasBT601() throws {
        for hex in ["#20c040", "#d03030", "#3050e0"] {
            let colour = try XCTUnwrap(RGBColor(hex: hex))
            let (y, u, v) = TestPatternPainter.yuv(colour)
            for (width, height, kr, kb) in [(1280, 720, 0.2126, 0.0722), (1920, 1080, 0.2126, 0.0722),
                                            (640, 480, 0.299, 0.114)] {
                let scaler = CanvasScaler(width: width, height: height)
                let frame = MovieWriterFixture.solidFrame(width: width, height: height, y: y, u: u, v: v)
                let picture = try scaler.scale(frame)
                defer { FFmpegFrame.release(picture) }
                let expected = Self.ycbcr(colour, kr: kr, kb: kb)
                for (px, py) in [(0, 0), (width / 2 + 1, height / 2 + 1), (width - 1, height - 1)] {
                    let (gotY, gotCb, gotCr) = Self.sample(picture, x: px, y: py)
                    let what = "\(hex) at \(width)x\(height) (\(px), \(py)): \((gotY, gotCb, gotCr)) for \(expected)"
                    XCTAssertEqual(Double(gotY), expected.y, accuracy: 2, what)
                    XCTAssertEqual(Double(gotCb), expected.cb, accuracy: 2, what)
                    XCTAssertEqual(Double(gotCr), expected.cr, accuracy: 2, what)
                }
            }
        }
    }

    /// A 4:3 lens pillarboxed on an HD canvas: the picture is converted, the bars stay limited-range black
    /// (16, 128, 128) exactly.
    func testPillarboxBarsStayBlackAndThePictureIsConverted() throws {
        let colour = RGBColor(red: 0x20, green: 0xc0, blue: 0x40)
        let (y, u, v) = TestPatternPainter.yuv(colour)
        let scaler = CanvasScaler(width: 1280, height: 720)
        let frame = MovieWriterFixture.solidFrame(width: 640, height: 480, y: y, u: u, v: v)
        let picture = try scaler.scale(frame)
        defer { FFmpegFrame.release(picture) }
        let placed = scaler.placement(sourceWidth: 640, sourceHeight: 480)
        XCTAssertGreaterThan(placed.x, 0, "4:3 on 16:9 is pillarboxed")
        for x in [0, placed.x - 2, placed.x + placed.width, 1279] {
            let (barY, barCb, barCr) = Self.sample(picture, x: x, y: 360)
            XCTAssertEqual([barY, barCb, barCr], [16, 128, 128], "bar at x \(x)")
        }
        let expected = Self.ycbcr(colour, kr: 0.2126, kb: 0.0722)
        let (gotY, gotCb, gotCr) = Self.sample(picture, x: 640, y: 360)
        XCTAssertEqual(Double(gotY), expected.y, accuracy: 2)
        XCTAssertEqual(Double(gotCb), expected.cb, accuracy: 2)
        XCTAssertEqual(Double(gotCr), expected.cr, accuracy: 2)
    }
}
