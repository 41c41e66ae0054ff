/// Decides which lens's frames reach the recorder, and crops them for digital zoom.
///
/// Like pause and resume, a lens switch takes effect at a time compared with frame timestamps: a frame from lens L
/// captured at PTS p passes when L was the active lens at p. Frames from the old lens still in flight when the
/// command arrives therefore pass, and the new lens takes over on its first frame at or after the switch. The
/// `LensBank` decides that time: the command's time for a lens that already delivers (hot), the new lens's first
/// frame for one that must start first (cold standby, a camera just plugged in), so the old lens fills the movie
/// until then. The first frame after a lens change asks for a keyframe, so every lens segment starts clean.
public struct Switcher: Sendable {
    /// The lens chosen most recently (what `status` shows).
    public private(set) var activeLens: String
    /// The lens of the last frame that passed; a different lens on the next frame means a switch happened.
    public private(set) var lastPassedLens: String?
    /// Lens changes in time order: (time, lens). The first is the starting lens.
    private var history: [(time: MediaTime, lens: String)]
    private var zoom: ZoomPlan

    /// A switcher on `lens` from the beginning of time.
    public init(lens: String) {
        activeLens = lens
        history = [(MediaTime(value: Int64.min / 2, timescale: 1), lens)]
        zoom = ZoomPlan()
    }

    /// Makes `lens` active from `time` on.
    public mutating func switchLens(to lens: String, at time: MediaTime) {
        activeLens = lens
        history.append((time, lens))
    }

    /// Starts a digital zoom towards `factor` (≥ 1), reached `ramp` after `time`.
    public mutating func zoom(to factor: Double, ramp: MediaTime, at time: MediaTime) {
        zoom.move(to: factor, ramp: ramp, at: time)
    }

    /// The digital zoom factor that applies at `time`.
    public func digitalZoom(at time: MediaTime) -> Double { zoom.factor(at: time) }

    /// The digital zoom most recently asked for (its target).
    public var targetZoom: Double { zoom.target }

    /// The frame as it should be recorded (with its zoom crop), and whether it must be a keyframe; `nil` when it
    /// comes from a lens that was not active at its capture time.
    public mutating func route(_ frame: VideoFrame) -> (frame: VideoFrame, lensChanged: Bool)? {
        guard lens(at: frame.pts) == frame.lens else { return nil }
        var routed = frame
        let factor = zoom.factor(at: frame.pts)
        if factor > 1.0001 { routed.crop = ZoomPlan.centreCrop(width: frame.orientedWidth, height: frame.orientedHeight,
                                                                    factor: factor) }
        let changed = lastPassedLens != nil && lastPassedLens != frame.lens
        lastPassedLens = frame.lens
        prune(before: frame.pts)
        return (routed, changed)
    }

    /// The lens active at `time`.
    public func lens(at time: MediaTime) -> String {
        history.last { $0.time <= time }?.lens ?? activeLens
    }

    /// Forgets switches that no frame can need any more (more than 10 s older than `time`), keeping the last one.
    private mutating func prune(before time: MediaTime) {
        guard history.count > 8, let limit = try? time.subtracting(.seconds(10)) else { return }
        while history.count > 1 && history[1].time <= limit { history.removeFirst() }
    }
}

/// A digital zoom that moves linearly from one factor to another over a ramp time.
public struct ZoomPlan: Sendable, Equatable {
    private var from: Double = 1
    public private(set) var target: Double = 1
    private var start: MediaTime = .zero
    private var ramp: MediaTime = .zero

    public init() {}

    /// Moves from the factor shown at `time` to `factor` over `ramp`.
    public mutating func move(to factor: Double, ramp: MediaTime, at time: MediaTime) {
        from = self.factor(at: time)
        target = Swift.max(1, factor)
        start = time
        self.ramp = ramp
    }

    /// The factor at `time`: `from` before the ramp, `target` after it, linear in between.
    public func factor(at time: MediaTime) -> Double {
        guard ramp > .zero, time < start + ramp else { return time < start ? from : target }
        let elapsed = (try? time.subtracting(start).rescaled(to: 1_000_000, rounding: .down).value) ?? 0
        let total = (try? ramp.rescaled(to: 1_000_000, rounding: .down).value) ?? 1
        let progress = Double(Swift.max(0, elapsed)) / Double(Swift.max(1, total))
        return from + (target - from) * progress
    }

    /// The centred rectangle that shows a `factor`× zoom of a `width`×`height` frame (even-aligned for 4:2:0).
    public static func centreCrop(width: Int, height: Int, factor: Double) -> PixelRect {
        let w = Swift.max(2, Int((Double(width) / factor).rounded()) & ~1)
        let h = Swift.max(2, Int((Double(height) / factor).rounded()) & ~1)
        return PixelRect(x: ((width - w) / 2) & ~1, y: ((height - h) / 2) & ~1, width: w, height: h)
    }
}
