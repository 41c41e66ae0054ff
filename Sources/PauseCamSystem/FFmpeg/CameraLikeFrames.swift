import PauseCamCore

/// Synthetic yuv420p frames that cost x264 what a real camera's do: a moving picture with detail (gradients, bars
/// and a grid) under fresh sensor-like noise in every frame. The clean virtual pattern encodes several times faster
/// than a camera's frames (x264 alone in bench/README.md: 3.4 times at ultrafast, 5.4 at veryfast), so a preset
/// chosen on it would drop frames on a real lens.
///
/// Cheap to make (no per-pixel random numbers): the noise is one random table read at a random offset per row, so
/// each frame is different and no row repeats the one above it.
enum CameraLikeFrames {
    /// `count` distinct frames of `width`×`height` (made even), limited range, lens name "measure".
    static func make(width: Int, height: Int, count: Int) -> [VideoFrame] {
        let width = max(2, width & ~1), height = max(2, height & ~1)
        var random = SplitMix64(seed: 0x5eed_cafe)
        let noiseCount = 1 << 16
        // Noise of about ±12 code values, like `noise=alls=12` on a testsrc2 picture.
        let noise: [Int16] = (0..<(noiseCount + width)).map { _ in Int16(Int(random.next() % 25) - 12) }
        return (0..<count).map { index in
            var luma = [UInt8](repeating: 0, count: width * height)
            let shift = index * 7
            for y in 0..<height {
                let offset = Int(random.next() % UInt64(noiseCount))
                let row = y * width
                let band = UInt8(truncatingIfNeeded: 40 + (y * 160) / height)
                for x in 0..<width {
                    let base = ((x + shift) & 0x40) != 0 ? Int(band) + ((x + shift) % 97) : Int(band)
                    let grid = ((x + shift) % 120 < 2 || (y + shift) % 90 < 2) ? 80 : 0
                    luma[row + x] = UInt8(clamping: min(235, max(16, base + grid + Int(noise[offset + x]))))
                }
            }
            let chromaWidth = width / 2, chromaHeight = height / 2
            var u = [UInt8](repeating: 128, count: chromaWidth * chromaHeight)
            var v = [UInt8](repeating: 128, count: chromaWidth * chromaHeight)
            for y in 0..<chromaHeight {
                let offset = Int(random.next() % UInt64(noiseCount))
                for x in 0..<chromaWidth {
                    let hue = ((x + shift / 2) * 6 / max(1, chromaWidth)) * 20
                    u[y * chromaWidth + x] = UInt8(clamping: 88 + hue + Int(noise[offset + x]) / 3)
                    v[y * chromaWidth + x] = UInt8(clamping: 168 - hue + Int(noise[offset + x]) / 3)
                }
            }
            return VideoFrame(pts: MediaTime(value: Int64(index), timescale: 30), width: width, height: height,
                              format: .yuv420p, planes: [Plane(bytes: luma, stride: width),
                                                         Plane(bytes: u, stride: chromaWidth),
                                                         Plane(bytes: v, stride: chromaWidth)],
                              lens: "measure")
        }
    }

}
