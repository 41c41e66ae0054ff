import PauseCamCore
import XCTest

/// Turning and mirroring a picture's planes, against tables worked out by hand: a 4x2 picture whose samples are all
/// different shows where each one lands, for every orientation and every source layout.
final class OrientingCopierTests: XCTestCase {
    typealias O = PictureOrientation

    /// The 4x2 luma plane:  1 2 3 4 / 5 6 7 8.
    static let luma: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]

    /// Every orientation with the oriented luma (turned clockwise, then flipped left to right).
    static let lumaTable: [(O, width: Int, height: Int, luma: [UInt8])] = [
        (O(), 4, 2, [1, 2, 3, 4, 5, 6, 7, 8]),
        (O(rotation: .quarter), 2, 4, [5, 1, 6, 2, 7, 3, 8, 4]),
        (O(rotation: .half), 4, 2, [8, 7, 6, 5, 4, 3, 2, 1]),
        (O(rotation: .threeQuarters), 2, 4, [4, 8, 3, 7, 2, 6, 1, 5]),
        (O(mirrored: true), 4, 2, [4, 3, 2, 1, 8, 7, 6, 5]),
        (O(rotation: .quarter, mirrored: true), 2, 4, [1, 5, 2, 6, 3, 7, 4, 8]),
        (O(rotation: .half, mirrored: true), 4, 2, [5, 6, 7, 8, 1, 2, 3, 4]),
        (O(rotation: .threeQuarters, mirrored: true), 2, 4, [8, 4, 7, 3, 6, 2, 5, 1]),
    ]

    /// A 4x2 planar picture with padded rows (the padding, 0xEE, must never be copied).
    static func planar(chroma blue: [UInt8], chromaRows: Int) -> [Plane] {
        func padded(_ samples: [UInt8], width: Int, rows: Int, stride: Int) -> Plane {
            var bytes: [UInt8] = []
            for row in 0..<rows {
                bytes += samples[(row * width)..<((row + 1) * width)]
                bytes += [UInt8](repeating: 0xEE, count: stride - width)
            }
            return Plane(bytes: bytes, stride: stride)
        }
        return [padded(luma, width: 4, rows: 2, stride: 7),
                padded(blue, width: 2, rows: chromaRows, stride: 5),
                padded(blue.map { $0 + 100 }, width: 2, rows: chromaRows, stride: 5)]
    }

    func testLumaLandsWhereEachOrientationPutsIt() {
        for (orientation, width, height, expected) in Self.lumaTable {
            for format in [PixelFormat.yuv420p, .yuv422p] {
                let source = Self.planar(chroma: format == .yuv420p ? [10, 20] : [10, 20, 31, 40],
                                         chromaRows: format == .yuv420p ? 1 : 2)
                let (layout, planes) = OrientingCopier.oriented(source, format: format, width: 4, height: 2,
                                                                orientation: orientation)
                XCTAssertEqual(layout.width, width, "\(orientation) \(format)")
                XCTAssertEqual(layout.height, height, "\(orientation) \(format)")
                XCTAssertEqual(planes[0].bytes, expected, "\(orientation) \(format)")
            }
        }
    }

    /// 4:2:0 chroma of a 4x4 picture (2x2 samples: 10 20 / 30 40) turns like the luma: its grid is square.
    func testFourTwoZeroChromaTurnsAsItIs() {
        let table: [(O, [UInt8])] = [
            (O(), [10, 20, 30, 40]),
            (O(rotation: .quarter), [30, 10, 40, 20]),
            (O(rotation: .half), [40, 30, 20, 10]),
            (O(rotation: .threeQuarters), [20, 40, 10, 30]),
            (O(mirrored: true), [20, 10, 40, 30]),
            (O(rotation: .quarter, mirrored: true), [10, 30, 20, 40]),
            (O(rotation: .half, mirrored: true), [30, 40, 10, 20]),
            (O(rotation: .threeQuarters, mirrored: true), [40, 20, 30, 10]),
        ]
        let blue: [UInt8] = [10, 20, 30, 40]
        let source = [Plane(bytes: [UInt8](repeating: 0, count: 16), stride: 4), Plane(bytes: blue, stride: 2),
                      Plane(bytes: blue.map { $0 + 100 }, stride: 2)]
        for (orientation, expected) in table {
            let (layout, planes) = OrientingCopier.oriented(source, format: .yuv420p, width: 4, height: 4,
                                                            orientation: orientation)
            XCTAssertEqual(layout.format, .yuv420p)
            XCTAssertEqual(planes[1].bytes, expected, "\(orientation)")
            XCTAssertEqual(planes[2].bytes, expected.map { $0 + 100 }, "\(orientation)")
        }
    }

    /// 4:2:2 chroma of the 4x2 picture (2x2 samples: 10 20 / 31 40): a half turn or a mirror keeps 4:2:2; a quarter
    /// turn gives 4:2:0, each sample the rounded mean of the two turned samples it covers ((10 + 31 + 1) / 2 = 21).
    static let fourTwoTwoTable: [(O, PixelFormat, [UInt8])] = [
        (O(), .yuv422p, [10, 20, 31, 40]),
        (O(rotation: .quarter), .yuv420p, [21, 30]),
        (O(rotation: .half), .yuv422p, [40, 31, 20, 10]),
        (O(rotation: .threeQuarters), .yuv420p, [30, 21]),
        (O(mirrored: true), .yuv422p, [20, 10, 40, 31]),
        (O(rotation: .quarter, mirrored: true), .yuv420p, [21, 30]),
        (O(rotation: .half, mirrored: true), .yuv422p, [31, 40, 10, 20]),
        (O(rotation: .threeQuarters, mirrored: true), .yuv420p, [30, 21]),
    ]

    func testFourTwoTwoChromaTurnsAndIsSubsampledOnAQuarterTurn() {
        let source = Self.planar(chroma: [10, 20, 31, 40], chromaRows: 2)
        for (orientation, format, expected) in Self.fourTwoTwoTable {
            let (layout, planes) = OrientingCopier.oriented(source, format: .yuv422p, width: 4, height: 2,
                                                            orientation: orientation)
            XCTAssertEqual(layout.format, format, "\(orientation)")
            XCTAssertEqual(planes[1].bytes, expected, "\(orientation)")
            XCTAssertEqual(planes[2].bytes, expected.map { $0 + 100 }, "\(orientation)")
        }
    }

    /// Packed YUYV (Y0 U Y1 V) gives exactly what the same picture in planar 4:2:2 gives.
    func testPackedYUYVMatchesPlanarFourTwoTwo() {
        let blue: [UInt8] = [10, 20, 31, 40]
        var packed: [UInt8] = []
        for row in 0..<2 {
            for pair in 0..<2 {
                packed += [Self.luma[row * 4 + pair * 2], blue[row * 2 + pair],
                           Self.luma[row * 4 + pair * 2 + 1], blue[row * 2 + pair] + 100]
            }
            packed += [0xEE, 0xEE]
        }
        let planar = Self.planar(chroma: blue, chromaRows: 2)
        for (orientation, _, _, _) in Self.lumaTable {
            let fromPacked = OrientingCopier.oriented([Plane(bytes: packed, stride: 10)], format: .yuyv422, width: 4,
                                                      height: 2, orientation: orientation)
            let fromPlanar = OrientingCopier.oriented(planar, format: .yuv422p, width: 4, height: 2,
                                                      orientation: orientation)
            XCTAssertEqual(fromPacked.layout, fromPlanar.layout, "\(orientation)")
            XCTAssertEqual(fromPacked.planes.map(\.bytes), fromPlanar.planes.map(\.bytes), "\(orientation)")
        }
    }

    /// Four quarter turns, or two mirrors, give the picture back: every sample of a larger picture kept.
    func testFourQuarterTurnsGiveThePictureBack() {
        let width = 6, height = 4
        var picture = [Plane(bytes: (0..<(width * height)).map { UInt8($0) }, stride: width),
                       Plane(bytes: (0..<6).map { UInt8(100 + $0) }, stride: 3),
                       Plane(bytes: (0..<6).map { UInt8(200 + $0) }, stride: 3)]
        let original = picture.map(\.bytes)
        var size = (width, height)
        for _ in 0..<4 {
            let (layout, planes) = OrientingCopier.oriented(picture, format: .yuv420p, width: size.0, height: size.1,
                                                            orientation: O(rotation: .quarter))
            picture = planes
            size = (layout.width, layout.height)
        }
        XCTAssertEqual(picture.map(\.bytes), original)
        XCTAssertEqual(size.0, width)
    }

    /// A quarter turn swaps the sides a frame reports, and a digital zoom crops the picture as shown.
    func testTurnedFrameIsCroppedAsShown() {
        var frame = VideoFrame(pts: .zero, width: 1280, height: 720, format: .yuv420p, planes: [], lens: "main",
                               orientation: O(rotation: .quarter))
        XCTAssertEqual(frame.orientedWidth, 720)
        XCTAssertEqual(frame.orientedHeight, 1280)
        var switcher = Switcher(lens: "main")
        switcher.zoom(to: 2, ramp: .zero, at: .zero)
        frame.pts = .seconds(1)
        XCTAssertEqual(switcher.route(frame)?.frame.crop, PixelRect(x: 180, y: 320, width: 360, height: 640))
    }
}
