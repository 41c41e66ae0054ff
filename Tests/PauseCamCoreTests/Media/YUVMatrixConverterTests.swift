import PauseCamCore
import XCTest

/// The BT.601 → BT.709 kernel against the standards' equations computed in `Double`, on flat colours over a grid of
/// code values (limits included), at sharp colour edges, and on padded planes.
final class YUVMatrixConverterTests: XCTestCase {
    /// A limited-range BT.601 (Y, Cb, Cr) re-expressed in BT.709 the long way, from the standards' own equations:
    /// to R'G'B' with BT.601's Kr and Kb, back with BT.709's, rounded half up and clamped to 0–255 (what 8 bits hold).
    static func reference(y: Double, cb: Double, cr: Double) -> (y: Double, cb: Double, cr: Double) {
        let (kr1, kb1) = (0.299, 0.114), (kr2, kb2) = (0.2126, 0.0722)
        let e = (y - 16) / 219, pb = (cb - 128) / 224, pr = (cr - 128) / 224
        let r = e + 2 * (1 - kr1) * pr, b = e + 2 * (1 - kb1) * pb
        let g = (e - kr1 * r - kb1 * b) / (1 - kr1 - kb1)
        let e2 = kr2 * r + (1 - kr2 - kb2) * g + kb2 * b
        return (16 + 219 * e2, 128 + 224 * (b - e2) / (2 * (1 - kb2)), 128 + 224 * (r - e2) / (2 * (1 - kr2)))
    }

    static func code(_ value: Double) -> Int { Int(min(255, max(0, (value + 0.5).rounded(.down)))) }

    /// A `width`×`height` yuv420p picture in three arrays with padded strides (so a write past a row shows).
    struct Picture {
        var width: Int, height: Int
        var lumaStride: Int, chromaStride: Int
        var luma: [UInt8], blue: [UInt8], red: [UInt8]

        init(width: Int, height: Int, y: UInt8, cb: UInt8, cr: UInt8, padding: UInt8 = 0xEE) {
            self.width = width
            self.height = height
            lumaStride = width + 7
            chromaStride = (width + 1) / 2 + 5
            let chromaHeight = (height + 1) / 2
            luma = [UInt8](repeating: padding, count: lumaStride * height)
            blue = [UInt8](repeating: padding, count: chromaStride * chromaHeight)
            red = blue
            for row in 0..<height { for x in 0..<width { luma[row * lumaStride + x] = y } }
            for row in 0..<chromaHeight {
                for x in 0..<((width + 1) / 2) {
                    blue[row * chromaStride + x] = cb
                    red[row * chromaStride + x] = cr
                }
            }
        }

        var planes: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> YUVMatrixConverter.Planes {
            { [lumaStride, chromaStride] y, b, r in
                YUVMatrixConverter.Planes(luma: PlaneRows(base: y, stride: lumaStride),
                                          blue: PlaneRows(base: b, stride: chromaStride),
                                          red: PlaneRows(base: r, stride: chromaStride))
            }
        }

        /// Converts this picture into `destination` (same size and strides) with `kernel`; the converter gets this
        /// picture's own bytes, so a write to them would show.
        mutating func convert(into destination: inout Picture, kernel: YUVMatrixConverter.Kernel) {
            let make = planes, (width, height) = (self.width, self.height)
            luma.withUnsafeMutableBufferPointer { y in
                blue.withUnsafeMutableBufferPointer { b in
                    red.withUnsafeMutableBufferPointer { r in
                        destination.luma.withUnsafeMutableBufferPointer { y2 in
                            destination.blue.withUnsafeMutableBufferPointer { b2 in
                                destination.red.withUnsafeMutableBufferPointer { r2 in
                                    YUVMatrixConverter.bt601ToBT709.convert(
                                        from: make(y.baseAddress!, b.baseAddress!, r.baseAddress!),
                                        to: make(y2.baseAddress!, b2.baseAddress!, r2.baseAddress!),
                                        width: width, height: height, kernel: kernel)
                                }
                            }
                        }
                    }
                }
            }
        }

        mutating func convert(_ converter: YUVMatrixConverter = .bt601ToBT709,
                              kernel: YUVMatrixConverter.Kernel = YUVMatrixConverter.defaultKernel) {
            let (width, height, lumaStride, chromaStride) = (self.width, self.height, self.lumaStride, self.chromaStride)
            luma.withUnsafeMutableBufferPointer { y in
                blue.withUnsafeMutableBufferPointer { b in
                    red.withUnsafeMutableBufferPointer { r in
                        converter.convert(luma: PlaneRows(base: y.baseAddress!, stride: lumaStride),
                                          blue: PlaneRows(base: b.baseAddress!, stride: chromaStride),
                                          red: PlaneRows(base: r.baseAddress!, stride: chromaStride),
                                          width: width, height: height, kernel: kernel)
                    }
                }
            }
        }
    }

    /// Flat colours over a grid of Y, Cb and Cr (the limits 16, 235 and 240 included, and values beyond them): every
    /// converted sample is within 1 code value of the `Double` reference, neutral greys stay exactly themselves, and
    /// most samples are exact.
    func testFlatColoursMatchTheStandardsEquationsWithinOneCodeValue() {
        let lumas: [UInt8] = [0, 16, 17, 60, 126, 128, 200, 234, 235, 255]
        let chromas: [UInt8] = [0, 16, 17, 64, 100, 127, 128, 129, 160, 200, 239, 240, 255]
        var samples = 0, exact = 0
        for y in lumas {
            for cb in chromas {
                for cr in chromas {
                    var picture = Picture(width: 6, height: 4, y: y, cb: cb, cr: cr)
                    picture.convert()
                    let expected = Self.reference(y: Double(y), cb: Double(cb), cr: Double(cr))
                    let what = "Y \(y) Cb \(cb) Cr \(cr) → \(expected)"
                    for row in 0..<4 {
                        for x in 0..<6 {
                            let got = Int(picture.luma[row * picture.lumaStride + x])
                            XCTAssertEqual(got, Self.code(expected.y), accuracy: 1, "luma of \(what)")
                            samples += 1
                            if got == Self.code(expected.y) { exact += 1 }
                        }
                    }
                    for row in 0..<2 {
                        for x in 0..<3 {
                            let gotBlue = Int(picture.blue[row * picture.chromaStride + x])
                            let gotRed = Int(picture.red[row * picture.chromaStride + x])
                            XCTAssertEqual(gotBlue, Self.code(expected.cb), accuracy: 1, "Cb of \(what)")
                            XCTAssertEqual(gotRed, Self.code(expected.cr), accuracy: 1, "Cr of \(what)")
                            samples += 2
                            if gotBlue == Self.code(expected.cb) { exact += 1 }
                            if gotRed == Self.code(expected.cr) { exact += 1 }
                        }
                    }
                    if cb == 128 && cr == 128 {
                        XCTAssertEqual(picture.luma[0], y, "grey stays grey: \(what)")
                        XCTAssertEqual(picture.blue[0], 128, "grey stays grey: \(what)")
                        XCTAssertEqual(picture.red[0], 128, "grey stays grey: \(what)")
                    }
                }
            }
        }
        // Fixed-point rounding differs from the reference only within 0.01 of a half: nearly every sample is exact.
        XCTAssertGreaterThan(Double(exact) / Double(samples), 0.99, "\(exact) of \(samples) exact")
    }

    /// Luma's coefficient in both chroma rows of the change of matrix is zero (and luma's own is one), so the
    /// converted chroma cannot depend on luma: a block whose four lumas differ wildly gets the same chroma as a flat
    /// one. This is why the kernel needs neither the block's mean luma nor the co-sited one.
    func testChromaDoesNotDependOnLuma() {
        let m = YUVMatrixConverter.matrix(from: .bt601, to: .bt709)
        XCTAssertEqual(m[0][0], 1, accuracy: 1e-12)
        XCTAssertEqual(m[1][0], 0, accuracy: 1e-12)
        XCTAssertEqual(m[2][0], 0, accuracy: 1e-12)
        var flat = Picture(width: 2, height: 2, y: 128, cb: 90, cr: 200)
        var busy = flat
        busy.luma[0] = 16
        busy.luma[1] = 235
        busy.luma[busy.lumaStride] = 40
        busy.luma[busy.lumaStride + 1] = 220
        flat.convert()
        busy.convert()
        XCTAssertEqual(busy.blue[0], flat.blue[0])
        XCTAssertEqual(busy.red[0], flat.red[0])
    }

    /// A sharp vertical edge between two colours. On a block boundary every luma is exact (±1); through the middle
    /// of a block (4:2:0 chroma there is the mean of both sides) the two luma columns beside it are off by
    /// |M₀₁·ΔCb + M₀₂·ΔCr| / 2, about 14 code values for #20c040 | #d03030 and 28 for green | magenta: the figure the
    /// kernel's documentation gives.
    func testLumaErrorAtASharpColourEdgeIsHalfTheChromaStepsCorrection() {
        func ycbcr601(_ r: Double, _ g: Double, _ b: Double) -> (y: Double, cb: Double, cr: Double) {
            let y = 0.299 * r + 0.587 * g + 0.114 * b
            return (16 + 219 * y, 128 + 224 * (b - y) / 1.772, 128 + 224 * (r - y) / 1.402)
        }
        let m = YUVMatrixConverter.matrix(from: .bt601, to: .bt709)
        let pairs: [(String, (Double, Double, Double), (Double, Double, Double))] = [
            ("#20c040 | #d03030", (0x20 / 255.0, 0xc0 / 255.0, 0x40 / 255.0), (0xd0 / 255.0, 0x30 / 255.0, 0x30 / 255.0)),
            ("green | magenta", (0, 1, 0), (1, 0, 1)),
        ]
        for (name, left, right) in pairs {
            let a = ycbcr601(left.0, left.1, left.2), b = ycbcr601(right.0, right.1, right.2)
            let predicted = abs(m[0][1] * (b.cb - a.cb) + m[0][2] * (b.cr - a.cr)) / 2
            for edge in [4, 3] {  // the first column of the right colour: on a block boundary, then mid-block
                var picture = Picture(width: 8, height: 2, y: 0, cb: 0, cr: 0)
                for x in 0..<8 {
                    let c = x < edge ? a : b
                    picture.luma[x] = UInt8(Self.code(c.y))
                    picture.luma[picture.lumaStride + x] = UInt8(Self.code(c.y))
                }
                for block in 0..<4 {
                    let (cb, cr) = block * 2 + 1 < edge ? (a.cb, a.cr)
                        : block * 2 >= edge ? (b.cb, b.cr) : ((a.cb + b.cb) / 2, (a.cr + b.cr) / 2)
                    picture.blue[block] = UInt8(Self.code(cb))
                    picture.red[block] = UInt8(Self.code(cr))
                }
                picture.convert()
                var worst = 0
                for x in 0..<8 {
                    let c = x < edge ? a : b
                    let ideal = Self.code(Self.reference(y: Double(Self.code(c.y)), cb: c.cb, cr: c.cr).y)
                    worst = max(worst, abs(Int(picture.luma[x]) - ideal))
                }
                if edge % 2 == 0 {
                    XCTAssertLessThanOrEqual(worst, 1, "\(name), edge on a block boundary")
                } else {
                    XCTAssertEqual(Double(worst), predicted, accuracy: 1.5, "\(name), edge mid-block")
                }
            }
            XCTAssertGreaterThan(predicted, 10, "\(name): the edge figure is not trivial")
        }
    }

    /// Odd sizes and padded rows: the last column and row (sharing a chroma sample with nothing) are converted, and
    /// no byte of the padding changes.
    func testOddSizesConvertEveryPixelAndNoPadding() {
        var picture = Picture(width: 5, height: 3, y: 100, cb: 60, cr: 200)
        picture.convert()
        let expected = Self.reference(y: 100, cb: 60, cr: 200)
        for row in 0..<3 {
            for x in 0..<picture.lumaStride {
                let value = Int(picture.luma[row * picture.lumaStride + x])
                if x < 5 {
                    XCTAssertEqual(value, Self.code(expected.y), accuracy: 1, "luma (\(x), \(row))")
                } else {
                    XCTAssertEqual(value, 0xEE, "luma padding (\(x), \(row))")
                }
            }
        }
        for row in 0..<2 {
            for x in 0..<picture.chromaStride {
                let (blue, red) = (Int(picture.blue[row * picture.chromaStride + x]),
                                   Int(picture.red[row * picture.chromaStride + x]))
                if x < 3 {
                    XCTAssertEqual(blue, Self.code(expected.cb), accuracy: 1, "Cb (\(x), \(row))")
                    XCTAssertEqual(red, Self.code(expected.cr), accuracy: 1, "Cr (\(x), \(row))")
                } else {
                    XCTAssertEqual(blue, 0xEE, "Cb padding (\(x), \(row))")
                    XCTAssertEqual(red, 0xEE, "Cr padding (\(x), \(row))")
                }
            }
        }
    }

    /// A picture whose chroma holds every (Cb, Cr) pair once (256×256 chroma samples) and whose luma runs through
    /// every code value, limits included, in padded rows; or a smaller one of odd size cut from the same pattern.
    static func everyPair(width: Int = 512, height: Int = 512) -> Picture {
        var picture = Picture(width: width, height: height, y: 0, cb: 0, cr: 0)
        for row in 0..<height {
            for x in 0..<width { picture.luma[row * picture.lumaStride + x] = UInt8(truncatingIfNeeded: x * 7 + row * 13) }
        }
        for row in 0..<((height + 1) / 2) {
            for x in 0..<((width + 1) / 2) {
                picture.blue[row * picture.chromaStride + x] = UInt8(truncatingIfNeeded: x)
                picture.red[row * picture.chromaStride + x] = UInt8(truncatingIfNeeded: row)
            }
        }
        return picture
    }

    /// The vector kernel (what an optimized build uses) writes exactly the tables' bytes for every (Cb, Cr) pair and
    /// every luma value, and for odd sizes whose last columns and row the vectors hand to the tables; padding stays.
    func testVectorKernelGivesTheTablesBytesForEveryChromaPair() {
        for (width, height) in [(512, 512), (67, 33), (97, 2)] {
            var tables = Self.everyPair(width: width, height: height)
            var vectors = tables
            tables.convert(kernel: .tables)
            vectors.convert(kernel: .vectors)
            XCTAssertEqual(vectors.luma, tables.luma, "luma, \(width)x\(height)")
            XCTAssertEqual(vectors.blue, tables.blue, "Cb, \(width)x\(height)")
            XCTAssertEqual(vectors.red, tables.red, "Cr, \(width)x\(height)")
            XCTAssertNotEqual(tables.luma, Self.everyPair(width: width, height: height).luma, "the picture changed")
        }
    }

    /// Both kernels match the standards' `Double` equations within one code value on every (Cb, Cr) pair, and the
    /// 16-bit fixed point rounds like them on nearly every sample.
    func testEveryChromaPairMatchesTheStandardsEquations() {
        let source = Self.everyPair()
        for kernel in YUVMatrixConverter.Kernel.allCases {
            var picture = source
            picture.convert(kernel: kernel)
            var worst = 0, exact = 0, samples = 0
            for row in stride(from: 0, to: 512, by: 2) {
                for x in stride(from: 0, to: 512, by: 2) {
                    let chroma = row / 2 * picture.chromaStride + x / 2
                    let y = source.luma[row * source.lumaStride + x]
                    let expected = Self.reference(y: Double(y), cb: Double(source.blue[chroma]),
                                                  cr: Double(source.red[chroma]))
                    for (got, want) in [(Int(picture.luma[row * picture.lumaStride + x]), Self.code(expected.y)),
                                        (Int(picture.blue[chroma]), Self.code(expected.cb)),
                                        (Int(picture.red[chroma]), Self.code(expected.cr))] {
                        worst = max(worst, abs(got - want))
                        samples += 1
                        if got == want { exact += 1 }
                    }
                }
            }
            XCTAssertLessThanOrEqual(worst, 1, "\(kernel)")
            XCTAssertGreaterThan(Double(exact) / Double(samples), 0.995, "\(kernel): \(exact) of \(samples) exact")
        }
    }

    /// Out of place (the canvas scaler's one pass for a picture already at the canvas's size): the destination gets
    /// what converting in place gives, the source is not written, with either kernel.
    func testConvertingIntoAnotherPictureEqualsConvertingInPlace() {
        for (width, height) in [(512, 512), (67, 33)] {
            var source = Self.everyPair(width: width, height: height)
            var inPlace = source
            inPlace.convert(kernel: .tables)
            for kernel in YUVMatrixConverter.Kernel.allCases {
                var destination = Picture(width: width, height: height, y: 1, cb: 2, cr: 3)
                source.convert(into: &destination, kernel: kernel)
                XCTAssertEqual(destination.luma, inPlace.luma, "luma, \(kernel), \(width)x\(height)")
                XCTAssertEqual(destination.blue, inPlace.blue, "Cb, \(kernel), \(width)x\(height)")
                XCTAssertEqual(destination.red, inPlace.red, "Cr, \(kernel), \(width)x\(height)")
            }
            let untouched = Self.everyPair(width: width, height: height)
            XCTAssertEqual(source.luma, untouched.luma, "the source is only read")
            XCTAssertEqual(source.blue, untouched.blue, "the source is only read")
            XCTAssertEqual(source.red, untouched.red, "the source is only read")
        }
    }
}
