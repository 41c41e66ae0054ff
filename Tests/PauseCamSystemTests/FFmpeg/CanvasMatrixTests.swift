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

    /// A limited-range yuv420p picture already at the HD canvas's size (a virtual or file lens, or a zoom crop of the
    /// canvas's size) takes one pass that copies and converts: no libswscale context is made, and the canvas holds
    /// exactly what converting the source's own bytes in place gives, the bytes outside the crop never read.
    func testACanvasSizedPictureIsCopiedAndConvertedInOnePass() throws {
        let (width, height) = (1280, 720)
        // A source larger than the canvas, the crop the canvas's size at an even offset (scale 1: a zoom).
        let (sourceWidth, sourceHeight, cropX, cropY) = (1480, 860, 100, 50)
        var generator = SplitMix64(seed: 7)
        func noise(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
        let luma = noise(sourceWidth * sourceHeight)
        let blue = noise(sourceWidth * sourceHeight / 4), red = noise(sourceWidth * sourceHeight / 4)
        let planes = [Plane(bytes: luma, stride: sourceWidth), Plane(bytes: blue, stride: sourceWidth / 2),
                      Plane(bytes: red, stride: sourceWidth / 2)]
        for crop in [PixelRect(x: 0, y: 0, width: width, height: height),
                     PixelRect(x: cropX, y: cropY, width: width, height: height)] {
            let frame = VideoFrame(pts: .zero, width: sourceWidth, height: sourceHeight, format: .yuv420p,
                                   planes: planes, lens: "main", crop: crop)
            let scaler = CanvasScaler(width: width, height: height)
            let picture = try scaler.scale(frame)
            defer { FFmpegFrame.release(picture) }
            XCTAssertEqual(scaler.contexts.count, 0, "no libswscale context for a picture of the canvas's size")
            // The reference: the crop copied out and converted in place by the same converter.
            func cut(_ bytes: [UInt8], stride: Int, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
                var out: [UInt8] = []
                for row in 0..<height {
                    let start = (y + row) * stride + x
                    out += bytes[start..<(start + width)]
                }
                return out
            }
            var y = cut(luma, stride: sourceWidth, x: crop.x, y: crop.y, width: width, height: height)
            var cb = cut(blue, stride: sourceWidth / 2, x: crop.x / 2, y: crop.y / 2, width: width / 2, height: height / 2)
            var cr = cut(red, stride: sourceWidth / 2, x: crop.x / 2, y: crop.y / 2, width: width / 2, height: height / 2)
            y.withUnsafeMutableBufferPointer { y in
                cb.withUnsafeMutableBufferPointer { cb in
                    cr.withUnsafeMutableBufferPointer { cr in
                        YUVMatrixConverter.bt601ToBT709.convert(
                            luma: PlaneRows(base: y.baseAddress!, stride: width),
                            blue: PlaneRows(base: cb.baseAddress!, stride: width / 2),
                            red: PlaneRows(base: cr.baseAddress!, stride: width / 2), width: width, height: height)
                    }
                }
            }
            let canvas = CanvasScaler.planes(of: picture)
            var mismatches = 0
            for row in 0..<height {
                for x in 0..<width where canvas.data[0][row * canvas.stride[0] + x] != y[row * width + x] { mismatches += 1 }
            }
            for row in 0..<(height / 2) {
                for x in 0..<(width / 2) {
                    if canvas.data[1][row * canvas.stride[1] + x] != cb[row * width / 2 + x] { mismatches += 1 }
                    if canvas.data[2][row * canvas.stride[2] + x] != cr[row * width / 2 + x] { mismatches += 1 }
                }
            }
            XCTAssertEqual(mismatches, 0, "crop \(crop)")
        }
        // A picture that needs scaling still goes through libswscale.
        let scaler = CanvasScaler(width: width, height: height)
        let small = MovieWriterFixture.solidFrame(width: 640, height: 360, y: 100, u: 90, v: 200)
        FFmpegFrame.release(try scaler.scale(small))
        XCTAssertEqual(scaler.contexts.count, 1)
    }
}
