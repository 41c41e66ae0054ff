/// Turns a full-range (JPEG) planar 4:2:2 or 4:2:0 picture into a limited-range 4:2:0 canvas picture of the same
/// size in one pass: the range change, the halving of 4:2:2 chroma rows and, for an HD canvas, the BT.601 → BT.709
/// matrix, all at once.
///
/// Why: what an MJPEG webcam sends decodes to `yuvj422p`, and libswscale's route from there to the canvas (its
/// generic scaler with range conversion) and the matrix pass (`YUVMatrixConverter`) after it cost 4.0–7.8 ms per
/// 1080p frame on this project's machine: as much as a fifth of x264 ultrafast's own time on camera-like frames.
/// This pass reads each source byte once (chroma rows up to twice) and writes each canvas byte once: 1.9–2.6 ms
/// (`PauseCamBench matrix`).
///
/// The arithmetic. Full-range offsets become limited-range ones by the scales 219/255 (Y) and 224/255 (Cb, Cr); a
/// 4:2:0 chroma row sits between two 4:2:2 rows and is filtered from the four nearest as libswscale's bilinear
/// halving does (weights 1, 3, 3, 1 over eight: a plain mean of two rows differed from it by up to 25 code values at
/// the sharp edges of ffmpeg's `testsrc2`), so a camera's picture looks the same whichever route drew it; then the
/// matrix M of `YUVMatrixConverter.matrix(from:to:)` (the identity when both standards are the same) maps the
/// limited offsets.
/// Everything is linear. Cb and Cr are each one sum of products in Q16 fixed point in `Int32`, rounded once (half
/// up) and clamped to 0–255. Luma is its own scaled sample plus its block's correction, added in Q7 in 16-bit lanes
/// (each part rounded to the nearest 1/128, so 32 samples go at a time), then rounded and clamped. Either way a
/// result is off the exactly rounded value only within about 0.01 of a code value of a tie. The chroma sum `S` is
/// the four weighted rows' offsets added (for 4:2:0 sources, eight times the one row's), so the eighth is in the
/// coefficient.
///
/// The chroma loop is a plain pointer loop over `Int32` arithmetic that the optimizer vectorizes; the luma loop
/// uses SIMD lanes. Unoptimized, both are far slower than libswscale, so `CanvasScaler` uses this pass only in
/// optimized builds (`isDefault`), and the tests run it directly. Immutable: share it between threads.
public struct FullRangePictureConverter: Sendable {
    /// How the source's chroma rows relate to its luma rows.
    public enum ChromaRows: Sendable {
        /// One chroma row per luma row (planar 4:2:2, `yuvj422p`).
        case perLumaRow
        /// One chroma row per two luma rows (planar 4:2:0, `yuvj420p`).
        case perTwoLumaRows
    }

    /// Q16: a coefficient is its value times 65,536, rounded.
    static let fractionBits: Int32 = 16
    /// What luma gains per unit of the chroma sums S (Cb, Cr).
    let lumaFromBlue: Int32, lumaFromRed: Int32
    /// The new Cb and Cr per unit of the chroma sums.
    let blueFromBlue: Int32, blueFromRed: Int32, redFromBlue: Int32, redFromRed: Int32

    /// The pass from full-range `source`-matrix pictures to limited-range `target`-matrix ones.
    public init(from source: YUVMatrixConverter.LumaWeights, to target: YUVMatrixConverter.LumaWeights) {
        let m = YUVMatrixConverter.matrix(from: source, to: target)
        // A chroma sum S is eight times the full-range offset; ×224/255 makes it limited, ×1/8 undoes the sum.
        let chroma = 28.0 / 255.0
        func fixed(_ value: Double) -> Int32 { Int32((value * Double(1 << Self.fractionBits)).rounded()) }
        lumaFromBlue = fixed(m[0][1] * chroma)
        lumaFromRed = fixed(m[0][2] * chroma)
        blueFromBlue = fixed(m[1][1] * chroma)
        blueFromRed = fixed(m[1][2] * chroma)
        redFromBlue = fixed(m[2][1] * chroma)
        redFromRed = fixed(m[2][2] * chroma)
    }

    /// Full-range BT.601 (what JPEGs hold) to a limited-range BT.709 canvas: what an HD movie needs.
    public static let jpegToBT709 = FullRangePictureConverter(from: .bt601, to: .bt709)
    /// Full-range BT.601 to a limited-range BT.601 canvas: an SD movie's range change alone.
    public static let jpegToBT601 = FullRangePictureConverter(from: .bt601, to: .bt601)

    /// Whether `CanvasScaler` takes this pass for full-range pictures: in optimized builds only (see the type's
    /// comment), decided by the same switch as the matrix kernel's vectors.
    public static var isDefault: Bool { YUVMatrixConverter.defaultKernel == .vectors }

    /// Converts a `width`×`height` full-range picture (`source`'s chroma planes half its width, with `chromaRows`
    /// rows per luma row) into the limited-range 4:2:0 `destination` of the same size. `width` and `height` must be
    /// even (the canvas's are). `source` is only read; the two must not overlap; the caller owns both.
    public func convert(from source: YUVMatrixConverter.Planes, chromaRows: ChromaRows,
                        to destination: YUVMatrixConverter.Planes, width: Int, height: Int) {
        precondition(width % 2 == 0 && height % 2 == 0, "a 4:2:0 canvas has even sides")
        let pairs = width / 2
        // Constants folded into the chroma sums: rounding, and the limited range's 128 (in Q16).
        let chromaBias: Int32 = 1 << (Self.fractionBits - 1) + 128 << Self.fractionBits
        let lb = lumaFromBlue, lr = lumaFromRed
        let bb = blueFromBlue, br = blueFromRed, rb = redFromBlue, rr = redFromRed
        // Each chroma sample's luma correction, in Q7 with the rounding, the 16 and an offset of 64 that keeps the
        // 16-bit luma sums positive (`lumaRow`).
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: pairs) { corrections in
            let correction = corrections.baseAddress!
            for row in 0..<(height / 2) {
                // A 4:2:2 source's chroma rows 2·row − 1 … 2·row + 2 (the picture's edge rows repeated beyond it),
                // weighted 1, 3, 3, 1: libswscale's bilinear halving, so both routes give the same canvas. A
                // 4:2:0 source's one row, weighted 8.
                let (above, first, second, below) = chromaRows == .perLumaRow
                    ? (max(2 * row - 1, 0), 2 * row, 2 * row + 1, min(2 * row + 2, height - 1))
                    : (row, row, row, row)
                func pointer(_ plane: PlaneRows, _ index: Int) -> UnsafePointer<UInt8> {
                    UnsafePointer(plane.base + index * plane.stride)
                }
                let (cb0, cb1, cb2, cb3) = (pointer(source.blue, above), pointer(source.blue, first),
                                            pointer(source.blue, second), pointer(source.blue, below))
                let (cr0, cr1, cr2, cr3) = (pointer(source.red, above), pointer(source.red, first),
                                            pointer(source.red, second), pointer(source.red, below))
                let cbOut = destination.blue.base + row * destination.blue.stride
                let crOut = destination.red.base + row * destination.red.stride
                var x = 0
                while x < pairs {
                    let blue = Int32(cb0[x]) &+ 3 &* (Int32(cb1[x]) &+ Int32(cb2[x])) &+ Int32(cb3[x]) &- 1024
                    let red = Int32(cr0[x]) &+ 3 &* (Int32(cr1[x]) &+ Int32(cr2[x])) &+ Int32(cr3[x]) &- 1024
                    cbOut[x] = Self.clamped((blue &* bb &+ red &* br &+ chromaBias) &>> Self.fractionBits)
                    crOut[x] = Self.clamped((blue &* rb &+ red &* rr &+ chromaBias) &>> Self.fractionBits)
                    correction[x] = UInt16(truncatingIfNeeded: ((blue &* lb &+ red &* lr &+ 256) &>> 9) &+ Self.lumaBias)
                    x += 1
                }
                Self.lumaRow(source.luma.base + 2 * row * source.luma.stride,
                             destination.luma.base + 2 * row * destination.luma.stride, corrections: correction,
                             pairs: pairs)
                Self.lumaRow(source.luma.base + (2 * row + 1) * source.luma.stride,
                             destination.luma.base + (2 * row + 1) * destination.luma.stride, corrections: correction,
                             pairs: pairs)
            }
        }
    }

    /// Added to a luma correction in Q7: rounding (64), the limited range's 16 (16 × 128) and an offset of 64 code
    /// values (64 × 128) that keeps every sum positive in 16 bits: a correction is under ±64 code values.
    static let lumaBias: Int32 = 64 + 16 << 7 + 64 << 7

    /// Luma in Q7 from a full-range sample: Y × 219/255 × 128 = Y × 109.929, as Y × 110 − Y × 18/256 rounded (each
    /// product fits 16 bits; the result is within 0.6 of a Q7 unit, 0.005 code values, of the exact scale).
    @inline(__always)
    static func scaledLuma(_ y: UInt16) -> UInt16 { y &* 110 &- (y &* 18 &+ 128) &>> 8 }

    /// `scaledLuma` on 16 lanes.
    @inline(__always)
    static func scaledLuma(_ y: SIMD16<UInt16>) -> SIMD16<UInt16> { y &* 110 &- (y &* 18 &+ 128) &>> 8 }

    /// One luma row: each sample scaled to limited range plus its block's correction (`corrections[x]` for samples
    /// 2x and 2x + 1), rounded and clamped. 32 samples at a time in 16-bit lanes (even and odd samples apart, as
    /// the bytes of one `UInt16` lane), then the rest one by one with the same arithmetic.
    @inline(__always)
    static func lumaRow(_ input: UnsafeMutablePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>,
                        corrections: UnsafeMutablePointer<UInt16>, pairs: Int) {
        typealias Lanes = SIMD16<UInt16>
        let inRaw = UnsafeRawPointer(input), outRaw = UnsafeMutableRawPointer(output)
        let corrRaw = UnsafeRawPointer(corrections)
        let low = Lanes(repeating: 0xFF), offset = Lanes(repeating: 64), top = Lanes(repeating: 255)
        @inline(__always)
        func finished(_ y: Lanes, _ correction: Lanes) -> Lanes {
            // (Y in Q7 + correction) / 128 is the code value plus 64; below 64 is below 0, above 319 above 255.
            let value = (scaledLuma(y) &+ correction) &>> 7
            let floored = value.replacing(with: offset, where: value .< offset) &- offset
            return floored.replacing(with: top, where: floored .> top)
        }
        var x = 0
        while x + 16 <= pairs {
            let both = inRaw.loadUnaligned(fromByteOffset: 2 * x, as: Lanes.self)
            let correction = corrRaw.loadUnaligned(fromByteOffset: 2 * x, as: Lanes.self)
            let even = finished(both & low, correction), odd = finished(both &>> 8, correction)
            outRaw.storeBytes(of: even | odd &<< 8, toByteOffset: 2 * x, as: Lanes.self)
            x += 16
        }
        while x < pairs {
            for column in (2 * x)...(2 * x + 1) {
                output[column] = Self.clamped(Int32((scaledLuma(UInt16(input[column])) &+ corrections[x]) &>> 7) &- 64)
            }
            x += 1
        }
    }

    @inline(__always)
    static func clamped(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }
}
