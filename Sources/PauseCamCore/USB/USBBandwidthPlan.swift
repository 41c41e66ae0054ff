/// What `USBBandwidthPlanner` found: per bus, each camera lens's share of the periodic budget, what the bus must
/// carry at once, a verdict and the fixes when it does not fit.
public struct USBBandwidthPlan: Sendable, Equatable {
    /// Whether a bus can carry its cameras.
    public enum Verdict: Sendable, Equatable {
        /// Within the budget, even if every MJPEG camera reserved the most one stream can.
        case fits
        /// Within the budget by the estimate, but not if the MJPEG cameras reserve the most one stream can (some
        /// cameras do whatever the mode): the first stream that cannot get its bandwidth fails with ENOSPC.
        case mayNotFit
        /// Over the budget, or one camera's stream is larger than one stream can be at this speed: a camera will
        /// fail to start (`VIDIOC_STREAMON`: No space left on device).
        case doesNotFit
    }

    /// One camera lens's share of its bus.
    public struct Share: Sendable, Equatable {
        /// The lens, its place and its mode.
        public var load: USBCameraLoad
        /// The periodic bandwidth the lens's stream needs, in bits per second.
        public var bitsPerSecond: Int64
        /// True when `bitsPerSecond` is the MJPEG estimate rather than a figure from the mode or the camera.
        public var estimated: Bool
        /// The most this stream may reserve: `bitsPerSecond`, or for an estimated MJPEG stream the most one
        /// stream can reserve at the camera's speed.
        public var worstCase: Int64
        /// True when the stream is larger than one isochronous stream can be at the camera's speed: this mode
        /// cannot stream here at all, whatever else is on the bus.
        public var exceedsOneStream: Bool
    }

    /// One bus's plan.
    public struct Bus: Sendable, Equatable {
        public var bus: USBBus
        /// The camera lenses on this bus, in rig order.
        public var shares: [Share]
        /// What the bus must carry at once under the rig's standby: every share with `standby: hot`, the two
        /// largest with `standby: cold` (during a switch the old lens streams until the new one delivers).
        public var demand: Int64
        /// `demand` with every MJPEG estimate replaced by its worst case.
        public var worstCaseDemand: Int64
        public var verdict: Verdict
        /// What would make it fit, most effective first; empty when it fits.
        public var fixes: [String]
        /// Facts worth knowing even when the bus fits (a USB 3 camera running at high speed).
        public var notes: [String]

        /// The bus's periodic budget in bits per second.
        public var budget: Int64 { bus.speed.periodicBudget }
    }

    /// The buses that carry at least one camera lens, by bus number.
    public var buses: [Bus]

    /// The worst verdict of all buses (`fits` for a rig without planned cameras).
    public var verdict: Verdict {
        if buses.contains(where: { $0.verdict == .doesNotFit }) { return .doesNotFit }
        if buses.contains(where: { $0.verdict == .mayNotFit }) { return .mayNotFit }
        return .fits
    }
}
