import PauseCamCore
import XCTest

/// The one pass from a full-range (JPEG) 4:2:2 or 4:2:0 picture to a limited-range 4:2:0 canvas, against the
/// standards' equations computed in `Double` here (JFIF's full-range BT.601 to R'G'B', then the target standard in
/// limited range), over a grid of chroma pairs with every luma value, and on padded planes.
final class FullRangePictureConverterTests: XCTestCase {
    typealias Weights = YUVMatrixConverter.LumaWeights

    /// A full-range (Y, Cb, Cr) in `source`'s matrix, re-expressed in limited range in `target`'s, unrounded: JFIF
    /// full range is Y = 255·E'y and C = 128 + 255·P; limited range is 16 + 219·E'y and 128 + 224·P.
    static func reference(y: Double, cb: Double, cr: Double, source: Weights, target: Weights)
        -> (y: Double, cb: Double, cr: Double) {
        let e = y / 255, pb = (cb - 128) / 255, pr = (cr - 128) / 255
        let r = e + 2 * (1 - source.red) * pr, b = e + 2 * (1 - source.blue) * pb
        let g = (e - source.red * r - source.blue * b) / (1 - source.red - source.blue)
        let e2 = target.red * r + (1 - target.red - target.blue) * g + target.blue * b
        return (16 + 219 * e2, 128 + 224 * (b - e2) / (2 * (1 - target.blue)),
                128 + 224 * (r - e2) / (2 * (1 - target.red)))
    }

    static func code(_ value: Double) -> Int { Int(min(255, max(0, (value + 0.5).rounded(.down)))) }

    /// A planar picture in three arrays with padded strides, so that a write past a row shows.
    struct Planes {
        var lumaStride: Int, chromaStride: Int
        var luma: [UInt8], blue: [UInt8], red: [UInt8]

        init(width: Int, height: Int, chromaHeight: Int, padding: UInt8 = 0xEE) {
            lumaStride = width + 7
            chromaStride = width / 2 + 5
            luma = [UInt8](repeating: padding, count: lumaStride * height)
            blue = [UInt8](repeating: padding, count: chromaStride * chromaHeight)
            red = blue
        }
    }

    /// Converts `source` into a new padded 4:2:0 picture of `width`×`height` and returns it.
    static func convert(_ source: inout Planes, chromaRows: FullRangePictureConverter.ChromaRows, width: Int,
                        height: Int, with converter: FullRangePictureConverter) -> Planes {
        var output = Planes(width: width, height: height, chromaHeight: height / 2)
        let (sourceStrides, outputStrides) = ((source.lumaStride, source.chromaStride),
                                              (output.lumaStride, output.chromaStride))
        source.luma.withUnsafeMutableBufferPointer { y in
            source.blue.withUnsafeMutableBufferPointer { b in
                source.red.withUnsafeMutableBufferPointer { r in
                    output.luma.withUnsafeMutableBufferPointer { y2 in
                        output.blue.withUnsafeMutableBufferPointer { b2 in
                            output.red.withUnsafeMutableBufferPointer { r2 in
                                converter.convert(
                                    from: YUVMatrixConverter.Planes(
                                        luma: PlaneRows(base: y.baseAddress!, stride: sourceStrides.0),
                                        blue: PlaneRows(base: b.baseAddress!, stride: sourceStrides.1),
                                        red: PlaneRows(base: r.baseAddress!, stride: sourceStrides.1)),
                                    chromaRows: chromaRows,
                                    to: YUVMatrixConverter.Planes(
                                        luma: PlaneRows(base: y2.baseAddress!, stride: outputStrides.0),
                                        blue: PlaneRows(base: b2.baseAddress!, stride: outputStrides.1),
                                        red: PlaneRows(base: r2.baseAddress!, stride: outputStrides.1)),
                                    width: width, height: height)
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// One 2×2 block per combination of the two source rows' Cb and Cr (4:2:2: each chroma sample has a row of
    /// its own; in a picture two rows high the 1-3-3-1 filter, its edge rows repeated, is their mean) over a grid that includes 0 and 255, each block's four luma
    /// samples stepping through every value 0–255: every output sample is within one code value of the reference,
    /// and exact unless the reference is within 0.02 of a tie (the grid's multiples of 17 land near ties often), for an HD (BT.709) and an SD (BT.601) canvas. For 4:2:0 sources the one row is used
    /// for both.
    func testEveryBlockMatchesTheStandardsEquations() {
        let grid = Array(stride(from: 0, through: 255, by: 17))  // 0, 17, …, 255: 16 values
        for chromaRows in [FullRangePictureConverter.ChromaRows.perLumaRow, .perTwoLumaRows] {
            var combinations: [(Int, Int, Int, Int)] = []
            for cbTop in grid {
                for crTop in grid {
                    if chromaRows == .perTwoLumaRows {
                        combinations.append((cbTop, cbTop, crTop, crTop))
                        continue
                    }
                    for cbBottom in grid where (cbBottom / 17) % 4 == (cbTop / 17) % 4 || cbBottom == 255 - cbTop {
                        for crBottom in grid where (crBottom / 17) % 4 == (crTop / 17) % 4 || crBottom == 255 - crTop {
                            combinations.append((cbTop, cbBottom, crTop, crBottom))
                        }
                    }
                }
            }
            let width = 2 * combinations.count, height = 2
            var source = Planes(width: width, height: height, chromaHeight: chromaRows == .perLumaRow ? 2 : 1)
            for (block, (cbTop, cbBottom, crTop, crBottom)) in combinations.enumerated() {
                for sample in 0..<4 {
                    source.luma[(sample / 2) * source.lumaStride + 2 * block + sample % 2] =
                        UInt8((block * 4 + sample) * 37 % 256)
                }
                source.blue[block] = UInt8(cbTop)
                source.red[block] = UInt8(crTop)
                if chromaRows == .perLumaRow {
                    source.blue[source.chromaStride + block] = UInt8(cbBottom)
                    source.red[source.chromaStride + block] = UInt8(crBottom)
                }
            }
            for (converter, target) in [(FullRangePictureConverter.jpegToBT709, Weights.bt709),
                                        (.jpegToBT601, .bt601)] {
                let output = Self.convert(&source, chromaRows: chromaRows, width: width, height: height,
                                          with: converter)
                var worst = 0, exact = 0, samples = 0
                func check(_ got: UInt8, _ expected: Double, _ what: @autoclosure () -> String) {
                    let difference = abs(Int(got) - Self.code(expected))
                    worst = max(worst, difference)
                    if difference == 0 { exact += 1 }
                    samples += 1
                    if difference > 1 { XCTFail("\(what()): \(got), expected \(expected)") }
                    // Off by one only next to a tie (x.5), where the coefficients' rounding may tip it: the pass is
                    // the exactly rounded value everywhere else.
                    let tie = abs(expected - expected.rounded(.down) - 0.5)
                    if difference == 1, expected > 0, expected < 255, tie > 0.02 {
                        XCTFail("\(what()): \(got), expected \(expected), \(tie) from a tie")
                    }
                }
                for (block, (cbTop, cbBottom, crTop, crBottom)) in combinations.enumerated() {
                    let cb = Double(cbTop + cbBottom) / 2, cr = Double(crTop + crBottom) / 2
                    let chroma = Self.reference(y: 0, cb: cb, cr: cr, source: .bt601, target: target)
                    check(output.blue[block], chroma.cb, "Cb of block \(block) (\(target))")
                    check(output.red[block], chroma.cr, "Cr of block \(block) (\(target))")
                    for sample in 0..<4 {
                        let index = (sample / 2) * source.lumaStride + 2 * block + sample % 2
                        let y = Self.reference(y: Double(source.luma[index]), cb: cb, cr: cr, source: .bt601,
                                               target: target).y
                        check(output.luma[(sample / 2) * output.lumaStride + 2 * block + sample % 2], y,
                              "luma \(sample) of block \(block) (\(target))")
                    }
                }
                XCTAssertLessThanOrEqual(worst, 1, "\(chromaRows), \(target)")
                XCTAssertGreaterThan(Double(exact) / Double(samples), 0.98,
                                     "\(chromaRows), \(target): \(exact) of \(samples) exact")
                XCTAssertEqual(samples, combinations.count * 6)
                XCTAssertGreaterThanOrEqual(combinations.count, 256, "the grid was covered")
            }
        }
    }

    /// A taller 4:2:2 picture: each 4:2:0 chroma row is the 1-3-3-1 weighting of the four nearest source rows
    /// (edge rows repeated), libswscale's bilinear halving, and luma takes that chroma's correction.
    func testFourTwoTwoChromaRowsAreHalvedAsLibswscaleDoes() {
        let width = 64, height = 8
        let blueRows = [20, 200, 90, 150, 30, 240, 60, 120], redRows = [250, 10, 160, 70, 220, 40, 130, 100]
        var source = Planes(width: width, height: height, chromaHeight: height)
        for row in 0..<height {
            for x in 0..<width { source.luma[row * source.lumaStride + x] = UInt8((row * 31 + x * 3) % 256) }
            for x in 0..<(width / 2) {
                source.blue[row * source.chromaStride + x] = UInt8(blueRows[row])
                source.red[row * source.chromaStride + x] = UInt8(redRows[row])
            }
        }
        let output = Self.convert(&source, chromaRows: .perLumaRow, width: width, height: height, with: .jpegToBT709)
        for row in 0..<(height / 2) {
            func filtered(_ values: [Int]) -> Double {
                let near = [max(2 * row - 1, 0), 2 * row, 2 * row + 1, min(2 * row + 2, height - 1)].map { values[$0] }
                return Double(near[0] + 3 * near[1] + 3 * near[2] + near[3]) / 8
            }
            let cb = filtered(blueRows), cr = filtered(redRows)
            let chroma = Self.reference(y: 0, cb: cb, cr: cr, source: .bt601, target: .bt709)
            XCTAssertEqual(Double(output.blue[row * output.chromaStride + 5]), Double(Self.code(chroma.cb)), accuracy: 1,
                           "Cb of chroma row \(row)")
            XCTAssertEqual(Double(output.red[row * output.chromaStride + 5]), Double(Self.code(chroma.cr)), accuracy: 1,
                           "Cr of chroma row \(row)")
            for lumaRow in [2 * row, 2 * row + 1] {
                let y = Self.reference(y: Double(source.luma[lumaRow * source.lumaStride + 11]), cb: cb, cr: cr,
                                       source: .bt601, target: .bt709).y
                XCTAssertEqual(Double(output.luma[lumaRow * output.lumaStride + 11]), Double(Self.code(y)), accuracy: 1,
                               "luma of row \(lumaRow)")
            }
        }
        // Not the plain mean of the two rows: chroma row 2's Cb is (150 + 3·30 + 3·240 + 60) / 8 = 127.5 from source
        // rows 3–6, where the mean of rows 4 and 5 is 135.
        let mean = Self.reference(y: 0, cb: 135, cr: 130, source: .bt601, target: .bt709)
        XCTAssertGreaterThan(abs(Int(output.blue[2 * output.chromaStride + 5]) - Self.code(mean.cb)), 3)
    }

    /// Full-range grey is limited-range grey in any standard: Cb and Cr exactly 128, Y 16 + 219·Y/255 rounded,
    /// so black is 16 and white 235.
    func testGreyStaysGreyAndTheRangeEndsMeet() {
        let width = 512, height = 2
        var source = Planes(width: width, height: height, chromaHeight: height)
        for row in 0..<height {
            for x in 0..<width { source.luma[row * source.lumaStride + x] = UInt8(x / 2) }
            for x in 0..<(width / 2) {
                source.blue[row * source.chromaStride + x] = 128
                source.red[row * source.chromaStride + x] = 128
            }
        }
        for converter in [FullRangePictureConverter.jpegToBT709, .jpegToBT601] {
            let output = Self.convert(&source, chromaRows: .perLumaRow, width: width, height: height, with: converter)
            for x in 0..<width {
                XCTAssertEqual(Int(output.luma[x]), Self.code(16 + Double(x / 2) * 219 / 255), "luma of grey \(x / 2)")
            }
            XCTAssertEqual(output.luma[0], 16, "black")
            XCTAssertEqual(output.luma[width - 1], 235, "white")
            XCTAssertEqual(Set(output.blue[0..<(width / 2)]), [128])
            XCTAssertEqual(Set(output.red[0..<(width / 2)]), [128])
        }
    }

    /// Only the picture's own bytes are written (the padding after each row keeps its value) and the source is only
    /// read.
    func testThePaddingAndTheSourceAreUntouched() {
        let width = 70, height = 6
        var source = Planes(width: width, height: height, chromaHeight: height)
        var generator = SplitMix64(seed: 7)
        for row in 0..<height {
            for x in 0..<width { source.luma[row * source.lumaStride + x] = UInt8.random(in: 0...255, using: &generator) }
            for x in 0..<(width / 2) {
                source.blue[row * source.chromaStride + x] = UInt8.random(in: 0...255, using: &generator)
                source.red[row * source.chromaStride + x] = UInt8.random(in: 0...255, using: &generator)
            }
        }
        let untouched = (source.luma, source.blue, source.red)
        let output = Self.convert(&source, chromaRows: .perLumaRow, width: width, height: height, with: .jpegToBT709)
        XCTAssertEqual(source.luma, untouched.0, "the source is only read")
        XCTAssertEqual(source.blue, untouched.1)
        XCTAssertEqual(source.red, untouched.2)
        for row in 0..<height {
            for x in width..<output.lumaStride { XCTAssertEqual(output.luma[row * output.lumaStride + x], 0xEE) }
        }
        for row in 0..<(height / 2) {
            for x in (width / 2)..<output.chromaStride {
                XCTAssertEqual(output.blue[row * output.chromaStride + x], 0xEE)
                XCTAssertEqual(output.red[row * output.chromaStride + x], 0xEE)
            }
        }
        XCTAssertNotEqual(Set(output.luma.prefix(width)), [0xEE], "the picture itself was written")
    }
}
