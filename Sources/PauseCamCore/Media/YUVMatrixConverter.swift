/// Re-expresses a limited-range 4:2:0 picture from one YCbCr matrix in another (BT.601 → BT.709 for HD movies), in
/// place and without leaving YUV.
///
/// Why: every source PauseCam knows paints BT.601 (JPEG, UVC, the virtual lenses), but many editors assume BT.709
/// for HD whatever the tag says, so an HD movie should hold BT.709 values. libswscale 5.1 changes the matrix only
/// through RGB, a second pass that cost 2.5 ms (720p) to 18 ms (1080p YUYV) per frame; this is one affine map per
/// chroma sample plus one add per luma sample.
///
/// The map. Both matrices are linear in (R, G, B) and give grey zero chroma, so on (Y − 16, Cb − 128, Cr − 128) the
/// change of matrix is M = S·A₂·A₁⁻¹·S⁻¹ (A the matrix of each standard from its Kr and Kb, S the limited-range
/// scales 219, 224, 224), and its first column is (1, 0, 0): luma keeps itself and gains a mix of the chroma, while
/// chroma depends on chroma only — never on luma. So for 4:2:0 each block's chroma sample is converted alone (neither
/// the block's mean luma nor the co-sited one is needed: their coefficient is exactly zero), and the block's four
/// luma samples each add the same correction, computed from that one chroma sample. Where a sharp colour edge cuts
/// a 2×2 block the chroma sample is a mix of both sides, so the luma next to the edge gets a mixed correction: off by
/// |ΔY| = |M₀₁·ΔCb + M₀₂·ΔCr| / 2 for an edge in the middle of a block (ΔCb, ΔCr between the two colours; at most
/// 28 code values for a green/magenta edge, 14 for #20c040 against #d03030), exact for an edge on a block boundary.
///
/// Coefficients are derived once, in `Double`, from the two standards' Kr and Kb, then rounded to Q17 fixed point;
/// `map` is the whole arithmetic (rounding half up, clamping to 0–255). Two kernels apply it and give the same bytes:
/// - `tables`: two tables built from `map` at init, every (Cb, Cr) pair's new Cb, new Cr and luma correction
///   (256 KiB) and every (correction, Y) pair's clamped new Y (32 KiB), so a chroma sample costs one lookup and a
///   luma sample another. It stays fast without the optimizer, and the test suite runs debug builds of the recorder.
/// - `vectors`: `map` on 16 chroma samples and their 64 luma samples at once, in 16-bit SIMD lanes (SSE2 on
///   x86-64). A `perf` profile of the same-job benchmark (1080p30, pattern, ultrafast) had the tables at 14 % of
///   all CPU samples, about 2 ms per frame while x264 shares the caches.
/// `PauseCamBench matrix` (release, thread CPU time, machine loaded by another build): 1920x1080 tables 4.04 ms,
/// vectors 0.94 ms; 1280x720 tables 1.48 ms, vectors 0.39 ms; libswscale's route through RGB 3.8–9.3 ms. An
/// optimized build uses the vectors (`defaultKernel`). Rows are not split across threads: x264 already keeps both
/// cores of this machine busy. Immutable after init: share it freely between threads.
public final class YUVMatrixConverter: Sendable {
    /// A YCbCr standard's luma weights of red and blue (green is what is left); they alone define its matrix.
    public struct LumaWeights: Sendable, Hashable {
        /// Kr, the red share of luma.
        public var red: Double
        /// Kb, the blue share of luma.
        public var blue: Double

        /// ITU-R BT.601 (SMPTE 170M): Kr 0.299, Kb 0.114.
        public static let bt601 = LumaWeights(red: 0.299, blue: 0.114)
        /// ITU-R BT.709: Kr 0.2126, Kb 0.0722.
        public static let bt709 = LumaWeights(red: 0.2126, blue: 0.0722)

        /// A standard with the given weights.
        public init(red: Double, blue: Double) {
            self.red = red
            self.blue = blue
        }
    }

    /// Fractional bits of the fixed-point coefficients. Between BT.601 and BT.709 every mix a sample takes is
    /// under 0.21 in magnitude, so a Q17 coefficient splits into a top part under 256 and 7 low bits, and an offset
    /// times either part fits 16 bits (`term`): the vector kernel works on 16 lanes of `Int16`. The coefficients'
    /// rounding moves a result by under 0.001 code values, the terms' shifts by under 0.01.
    public static let fractionBits: Int32 = 17

    /// What luma gains per unit of Cb and Cr offset (Q17).
    public let lumaFromBlue: Int32, lumaFromRed: Int32
    /// The new Cb from the old Cb and Cr offsets (Q17; the first is close to 1).
    public let blueFromBlue: Int32, blueFromRed: Int32
    /// The new Cr from the old Cb and Cr offsets (Q17; the second is close to 1).
    public let redFromBlue: Int32, redFromRed: Int32
    /// Index `Cb << 8 | Cr`: new Cb in bits 0–7, new Cr in bits 8–15, and in bits 16–31 the row of `lumaTable` for
    /// the luma correction (already shifted left by 8, so adding Y indexes the table).
    private let chromaTable: [UInt32]
    /// Index `(correction + 64) << 8 | Y`: the new Y, clamped.
    private let lumaTable: [UInt8]
    /// The largest luma correction the tables hold either way; any matrix pair of the two standards needs under 64.
    private static let correctionLimit = 64

    /// The converter from `source`'s matrix to `target`'s, both limited range.
    public init(from source: LumaWeights, to target: LumaWeights) {
        let m = Self.matrix(from: source, to: target)
        func fixed(_ value: Double) -> Int32 { Int32((value * Double(1 << Self.fractionBits)).rounded()) }
        lumaFromBlue = fixed(m[0][1])
        lumaFromRed = fixed(m[0][2])
        blueFromBlue = fixed(m[1][1])
        blueFromRed = fixed(m[1][2])
        redFromBlue = fixed(m[2][1])
        redFromRed = fixed(m[2][2])
        let one = 1 << Self.fractionBits
        for mix in [lumaFromBlue, lumaFromRed, blueFromBlue - Int32(one), blueFromRed, redFromBlue, redFromRed - Int32(one)] {
            precondition(abs(Int(mix)) < one / 4, "a mix of \(mix)/\(one) does not fit the 16-bit lanes")
        }
        var chroma = [UInt32](repeating: 0, count: 1 << 16)
        let limit = Self.correctionLimit
        for cb in 0..<256 {
            for cr in 0..<256 {
                let (delta, newBlue, newRed) = Self.map(Int32(cb) - 128, Int32(cr) - 128, lumaFromBlue, lumaFromRed,
                                                        blueFromBlue, blueFromRed, redFromBlue, redFromRed)
                precondition(abs(Int(delta)) < limit, "luma correction \(delta) out of the table's range")
                chroma[cb << 8 | cr] = UInt32(UInt8(clamping: newBlue)) | UInt32(UInt8(clamping: newRed)) << 8
                    | UInt32((Int(delta) + limit) << 8) << 16
            }
        }
        var lumaTable = [UInt8](repeating: 0, count: 2 * limit << 8)
        for correction in -limit..<limit {
            for y in 0..<256 { lumaTable[(correction + limit) << 8 | y] = UInt8(clamping: y + correction) }
        }
        chromaTable = chroma
        self.lumaTable = lumaTable
    }

    /// The fixed-point map on one chroma sample's offsets (Cb − 128, Cr − 128): luma's correction, and the new Cb
    /// and Cr as code values, not yet clamped. Cb and Cr keep their own offset whole and add only their mix (the
    /// diagonal's excess over 1); every mix is a sum of two `term`s, rounded half up. Both kernels compute exactly
    /// this, the vectors in 16-bit lanes.
    static func map(_ cb: Int32, _ cr: Int32, _ lb: Int32, _ lr: Int32, _ bb: Int32, _ br: Int32,
                    _ rb: Int32, _ rr: Int32) -> (Int32, Int32, Int32) {
        let one: Int32 = 1 << fractionBits
        func mix(_ a: Int32, _ b: Int32) -> Int32 { (term(cb, a) + term(cr, b) + 1 << 8) >> 9 }
        return (mix(lb, lr), cb + 128 + mix(bb - one, br), cr + 128 + mix(rb, rr - one))
    }

    /// An offset (−128…127) times a Q17 coefficient under 1/4 in magnitude, in Q9, from two products that each fit
    /// 16 bits: the coefficient's top bits (at most 213 × 128) and its low 7 bits (at most 127 × 128), each shifted
    /// down (rounding toward −∞) to Q9. A sum of two terms stays under 21,300: 16-bit lanes hold it.
    @inline(__always)
    static func term(_ offset: Int32, _ coefficient: Int32) -> Int32 {
        (offset * (coefficient >> 7)) >> 1 + (offset * (coefficient & 127)) >> 8
    }

    /// BT.601 to BT.709: what an HD canvas needs.
    public static let bt601ToBT709 = YUVMatrixConverter(from: .bt601, to: .bt709)

    /// The exact map on limited-range offsets (Y − 16, Cb − 128, Cr − 128), row by row: M = S·A₂·A₁⁻¹·S⁻¹.
    ///
    /// A₁⁻¹ is written out (R = Y + 2(1−Kr)·Pr, B = Y + 2(1−Kb)·Pb, G = (Y − Kr·R − Kb·B)/Kg) and A₂ applied to
    /// its columns, so the first column comes out (1, 0, 0) up to rounding of the last bit.
    public static func matrix(from source: LumaWeights, to target: LumaWeights) -> [[Double]] {
        let scale = [219.0, 224.0, 224.0]
        // Columns of A₁⁻¹: the RGB of a unit Y, Pb and Pr.
        func rgb(y: Double, pb: Double, pr: Double) -> (Double, Double, Double) {
            let kr = source.red, kb = source.blue, kg = 1 - kr - kb
            let r = y + 2 * (1 - kr) * pr
            let b = y + 2 * (1 - kb) * pb
            return (r, (y - kr * r - kb * b) / kg, b)
        }
        func ycbcr(_ c: (Double, Double, Double)) -> [Double] {
            let kr = target.red, kb = target.blue, kg = 1 - kr - kb
            let y = kr * c.0 + kg * c.1 + kb * c.2
            return [y, (c.2 - y) / (2 * (1 - kb)), (c.0 - y) / (2 * (1 - kr))]
        }
        let columns = [ycbcr(rgb(y: 1, pb: 0, pr: 0)), ycbcr(rgb(y: 0, pb: 1, pr: 0)), ycbcr(rgb(y: 0, pb: 0, pr: 1))]
        return (0..<3).map { row in (0..<3).map { column in columns[column][row] * scale[row] / scale[column] } }
    }

    /// How a picture is converted; both give the same bytes (`YUVMatrixConverterTests` compares them sample for
    /// sample). `tables`: two lookups per sample, fast in a debug build too (the test suite's recorder is one).
    /// `vectors`: the same fixed-point arithmetic on 16 chroma samples and their 64 luma samples at once, in SIMD
    /// registers; with the optimizer about 4× faster than the tables, and without it hundreds of times slower.
    public enum Kernel: Sendable, CaseIterable {
        case tables, vectors
    }

    /// What `convert` uses unless told: the vectors in an optimized build, the tables in a debug one.
    public static var defaultKernel: Kernel {
        #if DEBUG
        return .tables
        #else
        return .vectors
        #endif
    }

    /// Converts a `width`×`height` 4:2:0 picture in place: luma rows of `luma.stride` bytes, chroma planes of half
    /// the width and height (rounded up). Only the given rectangle of bytes is read or written; the caller keeps
    /// ownership of the planes and must not touch them during the call.
    public func convert(luma: PlaneRows, blue: PlaneRows, red: PlaneRows, width: Int, height: Int,
                        kernel: Kernel = YUVMatrixConverter.defaultKernel) {
        convert(luma: luma, blue: blue, red: red, width: width, height: height, chromaRows: 0..<((height + 1) / 2),
                kernel: kernel)
    }

    /// Converts only the chroma rows `chromaRows` (and their luma rows): disjoint ranges may run on different
    /// threads at once.
    public func convert(luma: PlaneRows, blue: PlaneRows, red: PlaneRows, width: Int, height: Int,
                        chromaRows: Range<Int>, kernel: Kernel = YUVMatrixConverter.defaultKernel) {
        let planes = Planes(luma: luma, blue: blue, red: red)
        convert(from: planes, to: planes, width: width, height: height, chromaRows: chromaRows, kernel: kernel)
    }

    /// The three planes of a 4:2:0 picture, as rows.
    public struct Planes: Sendable {
        public var luma: PlaneRows, blue: PlaneRows, red: PlaneRows

        public init(luma: PlaneRows, blue: PlaneRows, red: PlaneRows) {
            self.luma = luma
            self.blue = blue
            self.red = red
        }
    }

    /// Converts `source` into `destination` (both `width`×`height`; they may be the same planes, for in place, but
    /// must not otherwise overlap): one pass that copies and converts, so a picture already at the canvas's size
    /// needs no separate copy. `source` is only read.
    public func convert(from source: Planes, to destination: Planes, width: Int, height: Int,
                        kernel: Kernel = YUVMatrixConverter.defaultKernel) {
        convert(from: source, to: destination, width: width, height: height, chromaRows: 0..<((height + 1) / 2),
                kernel: kernel)
    }

    /// `convert(from:to:width:height:)` on the chroma rows `chromaRows` only.
    public func convert(from source: Planes, to destination: Planes, width: Int, height: Int, chromaRows: Range<Int>,
                        kernel: Kernel) {
        let pairs = width / 2
        chromaTable.withUnsafeBufferPointer { chromaTable in
            lumaTable.withUnsafeBufferPointer { lumaTable in
                let tables = (chroma: chromaTable.baseAddress!, luma: lumaTable.baseAddress!)
                var row = chromaRows.lowerBound
                while row < chromaRows.upperBound {
                    // The vectors take whole groups of 16 chroma samples over two luma rows; the tables do the rest
                    // of the row (and an odd last luma row, which has no second row).
                    let vectorPairs = kernel == .vectors && 2 * row + 1 < height ? pairs - pairs % 16 : 0
                    if vectorPairs > 0 {
                        vectorRow(row, from: source, to: destination, pairs: vectorPairs)
                    }
                    tableRow(row, from: source, to: destination, width: width, height: height, firstPair: vectorPairs,
                             tables: tables)
                    row += 1
                }
            }
        }
    }

    /// One chroma row from chroma sample `firstPair` on, through the tables. Plain `while` loops over pointers: they
    /// stay fast in a debug build too.
    @inline(__always)
    private func tableRow(_ row: Int, from source: Planes, to destination: Planes, width: Int, height: Int,
                          firstPair: Int, tables: (chroma: UnsafePointer<UInt32>, luma: UnsafePointer<UInt8>)) {
        let chromaWidth = (width + 1) / 2, pairs = width / 2
        let cbIn = source.blue.base + row * source.blue.stride, crIn = source.red.base + row * source.red.stride
        let cbOut = destination.blue.base + row * destination.blue.stride
        let crOut = destination.red.base + row * destination.red.stride
        let topIn = source.luma.base + 2 * row * source.luma.stride
        let topOut = destination.luma.base + 2 * row * destination.luma.stride
        // An odd last luma row shares its chroma row with no second luma row.
        let hasBottom = 2 * row + 1 < height
        let bottomIn = topIn + source.luma.stride, bottomOut = topOut + destination.luma.stride
        let chroma = tables.chroma, newLuma = tables.luma
        var x = firstPair
        while x < chromaWidth {
            let entry = chroma[Int(cbIn[x]) << 8 | Int(crIn[x])]
            cbOut[x] = UInt8(truncatingIfNeeded: entry)
            crOut[x] = UInt8(truncatingIfNeeded: entry >> 8)
            let correction = Int(entry >> 16)
            let column = 2 * x
            let two = x < pairs
            topOut[column] = newLuma[correction | Int(topIn[column])]
            if two { topOut[column + 1] = newLuma[correction | Int(topIn[column + 1])] }
            if hasBottom {
                bottomOut[column] = newLuma[correction | Int(bottomIn[column])]
                if two { bottomOut[column + 1] = newLuma[correction | Int(bottomIn[column + 1])] }
            }
            x += 1
        }
    }

    /// Chroma samples `0..<pairs` (a multiple of 16) of one chroma row and its two luma rows, 16 at a time: `map`
    /// in 16-bit SIMD lanes. Luma is read as 16-bit lanes, each holding a block's two neighbouring samples (the even
    /// one in the low byte: Linux's targets are little-endian), so every lane lines up with its chroma sample's
    /// correction.
    @inline(__always)
    private func vectorRow(_ row: Int, from source: Planes, to destination: Planes, pairs: Int) {
        typealias Lanes = SIMD16<Int16>
        let one = Int32(1) << Self.fractionBits
        /// A coefficient's two parts for `term`, in lanes.
        func parts(_ coefficient: Int32) -> (top: Lanes, low: Lanes) {
            (Lanes(repeating: Int16(coefficient >> 7)), Lanes(repeating: Int16(coefficient & 127)))
        }
        let lb = parts(lumaFromBlue), lr = parts(lumaFromRed)
        let bb = parts(blueFromBlue - one), br = parts(blueFromRed)
        let rb = parts(redFromBlue), rr = parts(redFromRed - one)
        let half = Lanes(repeating: 1 << 8), offset = Lanes(repeating: 128), high = Lanes(repeating: 255)
        let cbIn = UnsafeRawPointer(source.blue.base + row * source.blue.stride)
        let crIn = UnsafeRawPointer(source.red.base + row * source.red.stride)
        let cbOut = UnsafeMutableRawPointer(destination.blue.base + row * destination.blue.stride)
        let crOut = UnsafeMutableRawPointer(destination.red.base + row * destination.red.stride)
        let topIn = UnsafeRawPointer(source.luma.base + 2 * row * source.luma.stride)
        let topOut = UnsafeMutableRawPointer(destination.luma.base + 2 * row * destination.luma.stride)
        let bottomIn = topIn + source.luma.stride, bottomOut = topOut + destination.luma.stride

        // Clamping by masks (an arithmetic shift of a negative lane is all ones): the standard library's
        // `pointwiseMin`/`pointwiseMax` and `init(clamping:)` are calls, or lane-by-lane code, in an optimized build.
        @inline(__always)
        func clamped(_ value: Lanes) -> Lanes {
            let positive = value & ~(value &>> 15)
            let over = (high &- positive) &>> 15
            return (positive & ~over) | (high & over)
        }
        @inline(__always)
        func corrected(_ pairsOfLuma: SIMD16<UInt16>, by correction: Lanes) -> SIMD16<UInt16> {
            let even = Lanes(truncatingIfNeeded: pairsOfLuma & 0xFF) &+ correction
            let odd = Lanes(truncatingIfNeeded: pairsOfLuma &>> 8) &+ correction
            return SIMD16<UInt16>(truncatingIfNeeded: clamped(even)) | SIMD16<UInt16>(truncatingIfNeeded: clamped(odd)) &<< 8
        }

        var x = 0
        while x < pairs {
            let cb = Lanes(truncatingIfNeeded: cbIn.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self)) &- offset
            let cr = Lanes(truncatingIfNeeded: crIn.loadUnaligned(fromByteOffset: x, as: SIMD16<UInt8>.self)) &- offset
            @inline(__always)
            func mix(_ a: (top: Lanes, low: Lanes), _ b: (top: Lanes, low: Lanes)) -> Lanes {
                ((cb &* a.top) &>> 1 &+ (cb &* a.low) &>> 8 &+ (cr &* b.top) &>> 1 &+ (cr &* b.low) &>> 8 &+ half) &>> 9
            }
            let correction = mix(lb, lr)
            let blue = clamped(cb &+ offset &+ mix(bb, br)), red = clamped(cr &+ offset &+ mix(rb, rr))
            cbOut.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: blue), toByteOffset: x, as: SIMD16<UInt8>.self)
            crOut.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: red), toByteOffset: x, as: SIMD16<UInt8>.self)
            let top = topIn.loadUnaligned(fromByteOffset: 2 * x, as: SIMD16<UInt16>.self)
            let bottom = bottomIn.loadUnaligned(fromByteOffset: 2 * x, as: SIMD16<UInt16>.self)
            topOut.storeBytes(of: corrected(top, by: correction), toByteOffset: 2 * x, as: SIMD16<UInt16>.self)
            bottomOut.storeBytes(of: corrected(bottom, by: correction), toByteOffset: 2 * x, as: SIMD16<UInt16>.self)
            x += 16
        }
    }
}
