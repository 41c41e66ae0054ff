/// The still the live outputs show while the recording is paused, with `live: {while_paused: slate}`: the rig's
/// name and `PAUSED` in light grey on near-black, in the no-signal slate's 5×7 font, so an audience sees a break
/// rather than the room. Drawn once per size, in pure Swift.
public enum LivePausedSlate {
    /// The lens name slate frames carry: not a rig lens, so the output clock marks the change (a keyframe).
    public static let lensName = "(paused)"

    /// The slate for `rigName`, `width`×`height` (even), stamped `pts`.
    public static func frame(width: Int, height: Int, rigName: String, pts: MediaTime) -> VideoFrame {
        let lines = [String(rigName.uppercased().prefix(40)), "PAUSED"]
        var luma = [UInt8](repeating: 24, count: max(0, width * height))
        let cellWidth = SlateFont.glyphWidth + 1, cellHeight = SlateFont.glyphHeight + 3
        let widest = max(1, lines.map(\.count).max() ?? 1)
        let scale = max(1, min(width * 9 / 10 / (widest * cellWidth), height * 6 / 10 / (lines.count * cellHeight)))
        let top = (height - lines.count * cellHeight * scale) / 2
        for (index, line) in lines.enumerated() {
            let left = (width - line.count * cellWidth * scale) / 2
            for (column, character) in line.enumerated() {
                let x = left + column * cellWidth * scale, y = top + index * cellHeight * scale
                for (row, bits) in SlateFont.rows(of: character).enumerated() {
                    for dot in 0..<SlateFont.glyphWidth where bits & (0x10 >> UInt8(dot)) != 0 {
                        for dy in 0..<scale {
                            let py = y + row * scale + dy
                            guard py >= 0 && py < height else { continue }
                            for dx in 0..<scale {
                                let px = x + dot * scale + dx
                                if px >= 0 && px < width { luma[py * width + px] = 200 }
                            }
                        }
                    }
                }
            }
        }
        let chroma = [UInt8](repeating: 128, count: max(0, (width / 2) * (height / 2)))
        return VideoFrame(pts: pts, width: width, height: height, format: .yuv420p,
                          planes: [Plane(bytes: luma, stride: width), Plane(bytes: chroma, stride: width / 2),
                                   Plane(bytes: chroma, stride: width / 2)],
                          lens: lensName)
    }
}
