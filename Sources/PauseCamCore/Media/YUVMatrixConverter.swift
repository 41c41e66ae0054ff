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
/// Coefficients are derived once, in `Double`, from the two standards' Kr and Kb, then rounded to Q14 fixed point
/// (round half up, clamped to 0–255). The map is applied through two tables built from them at init: every (Cb, Cr)
/// pair's new Cb, new Cr and luma correction (256 KiB), and every (correction, Y) pair's clamped new Y (32 KiB), so
/// a chroma sample costs one lookup and a luma sample another. `PauseCamBench matrix` (release, CPU time): 0.47 ms
/// per 1280x720 frame, 1.05 ms per 1920x1080, against 2.4–11 ms for libswscale's route through RGB. Measured per
/// 1280x720 frame in a stand-alone build of this file (CPU time, 2 loaded cores): tables 0.57 ms optimized and
/// 7.6 ms unoptimized; the same arithmetic in SIMD registers 0.82 ms and 550 ms; a plain loop 2.1 ms and 100 ms —
/// and the test suite runs debug builds of the recorder. Rows are not split across threads: two threads saved no
/// wall time on this machine, where x264 already keeps both cores busy. The tables are built at first use (65,536
/// entries). Immutable after init: share it freely between threads.
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

    /// Fractional bits of the fixed-point coefficients: 14 keeps every product of a coefficient (< 2 in magnitude)
    /// and a chroma offset (−128…127) well inside `Int32`, and the coefficients' rounding under 0.01 code values.
    public static let fractionBits: Int32 = 14

    /// What luma gains per unit of Cb and Cr offset (Q14).
    public let lumaFromBlue: Int32, lumaFromRed: Int32
    /// The new Cb from the old Cb and Cr offsets (Q14).
    public let blueFromBlue: Int32, blueFromRed: Int32
    /// The new Cr from the old Cb and Cr offsets (Q14).
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
    /// and Cr as code values, not yet clamped. Rounds half up.
    private static func map(_ cb: Int32, _ cr: Int32, _ lb: Int32, _ lr: Int32, _ bb: Int32, _ br: Int32,
                            _ rb: Int32, _ rr: Int32) -> (Int32, Int32, Int32) {
        let half: Int32 = 1 << (fractionBits - 1), centre: Int32 = 128 << fractionBits + half
        return ((cb * lb + cr * lr + half) >> fractionBits, (cb * bb + cr * br + centre) >> fractionBits,
                (cb * rb + cr * rr + centre) >> fractionBits)
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

    /// Converts a `width`×`height` 4:2:0 picture in place: luma rows of `luma.stride` bytes, chroma planes of half
    /// the width and height (rounded up). Only the given rectangle of bytes is read or written; the caller keeps
    /// ownership of the planes and must not touch them during the call.
    public func convert(luma: PlaneRows, blue: PlaneRows, red: PlaneRows, width: Int, height: Int) {
        convert(luma: luma, blue: blue, red: red, width: width, height: height, chromaRows: 0..<((height + 1) / 2))
    }

    /// Converts only the chroma rows `chromaRows` (and their luma rows): disjoint ranges may run on different
    /// threads at once. Plain `while` loops over pointers: they stay fast in a debug build too.
    public func convert(luma: PlaneRows, blue: PlaneRows, red: PlaneRows, width: Int, height: Int,
                        chromaRows: Range<Int>) {
        let chromaWidth = (width + 1) / 2, pairs = width / 2
        chromaTable.withUnsafeBufferPointer { chromaTable in
            lumaTable.withUnsafeBufferPointer { lumaTable in
                let chroma = chromaTable.baseAddress!, newLuma = lumaTable.baseAddress!
                var row = chromaRows.lowerBound
                while row < chromaRows.upperBound {
                    let cbRow = blue.base + row * blue.stride, crRow = red.base + row * red.stride
                    let top = luma.base + 2 * row * luma.stride
                    // An odd last luma row shares its chroma row with no second luma row.
                    let bottom = 2 * row + 1 < height ? top + luma.stride : nil
                    var x = 0
                    while x < chromaWidth {
                        let entry = chroma[Int(cbRow[x]) << 8 | Int(crRow[x])]
                        cbRow[x] = UInt8(truncatingIfNeeded: entry)
                        crRow[x] = UInt8(truncatingIfNeeded: entry >> 8)
                        let correction = Int(entry >> 16)
                        let column = 2 * x
                        let columns = x < pairs ? 2 : 1
                        top[column] = newLuma[correction | Int(top[column])]
                        if columns == 2 { top[column + 1] = newLuma[correction | Int(top[column + 1])] }
                        if let bottom {
                            bottom[column] = newLuma[correction | Int(bottom[column])]
                            if columns == 2 { bottom[column + 1] = newLuma[correction | Int(bottom[column + 1])] }
                        }
                        x += 1
                    }
                    row += 1
                }
            }
        }
    }
}
