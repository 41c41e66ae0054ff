import Foundation

extension FrameRate {
    /// The exact rate behind a sidecar's `fps` (a number printed for people): a whole rate (30), an NTSC rate
    /// (29.97… → 30000/1001), or else thousandths of a frame per second. `nil` when `fps` is not a usable rate.
    public init?(sidecarFPS fps: Double) {
        guard fps.isFinite, fps > 0, fps < 10_000 else { return nil }
        let whole = fps.rounded()
        if whole >= 1, abs(fps - whole) < 0.0005 {
            self.init(Int32(whole))
            return
        }
        let ntsc = (fps * 1.001).rounded()
        if ntsc >= 1, abs(fps - ntsc * 1000 / 1001) < 0.0005 {
            self.init(Int32(ntsc) * 1000, 1001)
            return
        }
        let thousandths = (fps * 1000).rounded()
        guard thousandths >= 1 else { return nil }
        self.init(Int32(thousandths), 1000)
    }
}
