/// What `standby: auto` means for each camera lens: hot (streaming all the time, switches instant) where its bus
/// carries every camera lens on it streaming at once, cold (opened when it becomes active) where it does not.
/// A bus that fits only by the MJPEG estimate ("may not fit") counts as full: a hot lens there could fail to
/// start with ENOSPC, while cold costs only a slower switch.
///
/// Pure: the caller plans the rig with `standby: hot` (`USBBandwidthPlanner`) and passes that plan.
public enum USBStandbyAutoChoice {
    /// The standby chosen for one lens, and why in words (for `pausecam check`).
    public struct Choice: Sendable, Equatable {
        /// The lens's name in the rig.
        public var lens: String
        /// `.hot` or `.cold`.
        public var standby: Rig.Standby
        /// What decided it ("bus 1 carries all 2 camera lenses at once (295.0 of 384.0 Mbit/s)").
        public var reason: String
    }

    /// One choice per camera lens in `hotPlan`, bus by bus in the plan's order, lenses in rig order within a bus.
    public static func choose(hotPlan: USBBandwidthPlan) -> [Choice] {
        hotPlan.buses.flatMap { bus -> [Choice] in
            let megabits = USBBandwidthPlanner.megabits
            let load = "\(megabits(bus.worstCaseDemand)) at most of \(megabits(bus.budget))"
            let count = bus.shares.count == 1 ? "its camera lens" : "all \(bus.shares.count) camera lenses"
            let standby: Rig.Standby = bus.verdict == .fits ? .hot : .cold
            let reason = standby == .hot
                ? "bus \(bus.bus.number) carries \(count) streaming at once (\(load))"
                : "bus \(bus.bus.number) cannot carry \(count) streaming at once (\(load))"
            return bus.shares.map { Choice(lens: $0.load.lens, standby: standby, reason: reason) }
        }
    }
}
