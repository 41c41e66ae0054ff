/// The "no signal" slate: the picture the movie shows when no lens has delivered for longer than the rig's `hold`
/// (README, "hold and the slate"). The movie never has a hole, and an editor sees at once why the picture is gone.
///
/// The contract (tests measure it in decoded movies): a canvas-sized 4:2:0 frame, a near-black neutral background
/// (Y 24, U and V 128) with a mid-grey border (Y 128) an eighth of the text height thick, and three centred lines
/// of light-grey text (Y 200) in a 5×7 pixel font, scaled to the canvas: `NO SIGNAL`, `LENS <name>` and
/// `LOST AT <hh:mm:ss.t>` (the movie's time when the lens was lost). Drawn in pure Swift, once per loss.
public enum NoSignalSlate {
    /// The lens name slate frames carry: not a rig lens (role names are plain words), so the output clock marks a
    /// lens change (a keyframe) where the slate starts and ends, and the sidecar tells slate slots from a lens's.
    public static let lensName = "(no signal)"
    static let background: UInt8 = 24
    static let border: UInt8 = 128
    static let text: UInt8 = 200

    /// The slate for `lens`, lost at movie time `lostAt`, `width`×`height` (even), stamped `pts`.
    public static func frame(width: Int, height: Int, lens: String, lostAt: MediaTime, pts: MediaTime) -> VideoFrame {
        let lines = ["NO SIGNAL", "LENS \(lens)", "LOST AT \(DurationParser.clockString(lostAt))"]
        var luma = [UInt8](repeating: background, count: width * height)
        let cellWidth = SlateFont.glyphWidth + 1, cellHeight = SlateFont.glyphHeight + 3
        let widest = lines.map(\.count).max() ?? 1
        let scale = max(1, min(width * 9 / 10 / (widest * cellWidth), height * 7 / 10 / (lines.count * cellHeight)))
        let thickness = max(1, scale * SlateFont.glyphHeight / 8)
        for y in 0..<height {
            for x in 0..<width where x < thickness || y < thickness || x >= width - thickness || y >= height - thickness {
                luma[y * width + x] = border
            }
        }
        let top = (height - lines.count * cellHeight * scale) / 2
        for (index, line) in lines.enumerated() {
            let left = (width - line.count * cellWidth * scale) / 2
            for (column, character) in line.enumerated() {
                draw(character, x: left + column * cellWidth * scale, y: top + index * cellHeight * scale,
                     scale: scale, into: &luma, width: width, height: height)
            }
        }
        let chroma = [UInt8](repeating: 128, count: (width / 2) * (height / 2))
        return VideoFrame(pts: pts, width: width, height: height, format: .yuv420p,
                          planes: [Plane(bytes: luma, stride: width), Plane(bytes: chroma, stride: width / 2),
                                   Plane(bytes: chroma, stride: width / 2)],
                          lens: lensName)
    }

    /// Draws one glyph with its top-left corner at (`x`, `y`), each font pixel a `scale`² square; clipped.
    private static func draw(_ character: Character, x: Int, y: Int, scale: Int, into luma: inout [UInt8],
                             width: Int, height: Int) {
        for (row, bits) in SlateFont.rows(of: character).enumerated() {
            for column in 0..<SlateFont.glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                for dy in 0..<scale {
                    let py = y + row * scale + dy
                    guard py >= 0 && py < height else { continue }
                    for dx in 0..<scale {
                        let px = x + column * scale + dx
                        if px >= 0 && px < width { luma[py * width + px] = text }
                    }
                }
            }
        }
    }
}
