import PauseCamCore

/// One entry of `VIDIOC_ENUM_FRAMEINTERVALS`. Intervals are seconds per frame; PauseCam speaks frame rates, so a
/// `1/30` s interval is the rate 30.
public enum V4L2FrameInterval: Sendable, Equatable {
    /// `V4L2_FRMIVAL_TYPE_DISCRETE`.
    case discrete(FrameRate)
    /// `V4L2_FRMIVAL_TYPE_STEPWISE` / `CONTINUOUS`: any rate between the two.
    case range(slowest: FrameRate, fastest: FrameRate)

    /// The rates PauseCam considers: a discrete rate, or a range's two ends.
    public var candidates: [FrameRate] {
        switch self {
        case .discrete(let r): return [r]
        case .range(let slow, let fast): return [fast, slow]
        }
    }
}
