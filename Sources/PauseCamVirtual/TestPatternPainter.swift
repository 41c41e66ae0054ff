import PauseCamCore

/// Draws the virtual lens's test pattern into yuv420p planes (BT.601, limited range, what the encoder expects).
/// Split in two so the per-frame cost is small: `staticPlanes` once per lens, `drawDynamic` per frame.
public enum TestPatternPainter {
    /// Luma of white and black in limited range.
    public static let whiteY: UInt8 = 235
    public static let blackY: UInt8 = 16

    /// BT.601 limited-range Y, Cb, Cr of an sRGB colour.
    public static func yuv(_ c: RGBColor) -> (y: UInt8, u: UInt8, v: UInt8) {
        let r = Int(c.red), g = Int(c.green), b = Int(c.blue)
        let y = (66 * r + 129 * g + 25 * b + 128) >> 8 + 16
        let u = (-38 * r - 74 * g + 112 * b + 128) >> 8 + 128
        let v = (112 * r - 94 * g - 18 * b + 128) >> 8 + 128
        func clamp(_ x: Int) -> UInt8 { UInt8(Swift.max(0, Swift.min(255, x))) }
        return (clamp(y), clamp(u), clamp(v))
    }

    /// The side of the sync-flash square (a quarter of the height, even).
    public static func flashSide(height: Int) -> Int { (height / 4) & ~1 }
    /// The side of the centred square outline (half the height, even).
    public static func squareSide(height: Int) -> Int { (height / 2) & ~1 }
    /// Thickness of the square outline in pixels.
    public static let outlineThickness = 4

    /// Background, square outline and a black flash square.
    public static func staticPlanes(width: Int, height: Int, color: RGBColor) -> [Plane] {
        let (y, u, v) = yuv(color)
        var luma = [UInt8](repeating: y, count: width * height)
        let chromaWidth = width / 2, chromaHeight = height / 2
        var cb = [UInt8](repeating: u, count: chromaWidth * chromaHeight)
        var cr = [UInt8](repeating: v, count: chromaWidth * chromaHeight)

        // The centred square outline, white.
        let side = squareSide(height: height)
        let left = (width - side) / 2 & ~1, top = (height - side) / 2 & ~1
        let t = outlineThickness
        func fillLuma(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ value: UInt8) {
            for row in y0..<(y0 + h) { for col in x0..<(x0 + w) { luma[row * width + col] = value } }
        }
        func fillChroma(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int) {
            for row in (y0 / 2)..<((y0 + h) / 2) {
                for col in (x0 / 2)..<((x0 + w) / 2) {
                    cb[row * chromaWidth + col] = 128
                    cr[row * chromaWidth + col] = 128
                }
            }
        }
        for (x0, y0, w, h) in [(left, top, side, t), (left, top + side - t, side, t),
                               (left, top, t, side), (left + side - t, top, t, side)] {
            fillLuma(x0, y0, w, h, whiteY)
            fillChroma(x0, y0, w, h)
        }
        // The flash square starts black; drawDynamic whitens it on flash frames.
        let flash = flashSide(height: height)
        fillLuma(0, 0, flash, flash, blackY)
        fillChroma(0, 0, flash, flash)
        return [Plane(bytes: luma, stride: width), Plane(bytes: cb, stride: chromaWidth),
                Plane(bytes: cr, stride: chromaWidth)]
    }

    /// The moving bar and the flash square for the frame at `pts`.
    public static func drawDynamic(into planes: inout [Plane], width: Int, height: Int, pts: MediaTime, flash: Bool) {
        // The bar sweeps the width once every 2 s, in the bottom eighth.
        let period = MediaTime.seconds(2)
        let phaseTicks = (try? pts.rescaled(to: 1000, rounding: .down).value) ?? 0
        let periodMs = period.value * 1000
        let phase = Int(((phaseTicks % periodMs) + periodMs) % periodMs)
        let barWidth = Swift.max(2, width / 32)
        let barX = phase * (width - barWidth) / Int(periodMs)
        let barTop = height - height / 8
        let chromaWidth = width / 2
        planes[0].bytes.withUnsafeMutableBufferPointer { luma in
            for row in barTop..<height {
                let start = row * width + barX
                for i in start..<(start + barWidth) { luma[i] = whiteY }
            }
            if flash {
                let side = flashSide(height: height)
                for row in 0..<side {
                    let start = row * width
                    for i in start..<(start + side) { luma[i] = whiteY }
                }
            }
        }
        // The bar is white: neutral chroma under it too.
        for plane in 1...2 {
            planes[plane].bytes.withUnsafeMutableBufferPointer { chroma in
                for row in (barTop / 2)..<(height / 2) {
                    let start = row * chromaWidth + barX / 2
                    let end = Swift.min(start + (barWidth + 1) / 2, (row + 1) * chromaWidth)
                    for i in start..<end { chroma[i] = 128 }
                }
            }
        }
    }
}
