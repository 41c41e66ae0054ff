/// Maps an instant of the shared clock (CLOCK_REALTIME, the group's) onto the capture clock (CLOCK_MONOTONIC, the
/// session's), from pairs of readings the caller takes (`ClockReading`).
///
/// On one Linux kernel both clocks run at the rate NTP or PTP give the system clock, so their offset stays put
/// except when the shared clock is stepped (`clock_settime`, chrony's `makestep`, `phc2sys` correcting a large
/// error); between steps a new reading differs from the last by the pair's own reading delay, or by drift when the
/// capture clock is another one (a simulated clock). So the mapping keeps one offset, the anchor of the group's
/// grid on this member, and watches each new reading:
///
/// - a change of the offset from the previous reading larger than `stepThreshold` (plus what the kernel's largest
///   slew, 500 ppm, could do over the time between the readings) is a step: the mapping takes the new offset and
///   says so (`Change.stepped`), since every later command must be placed on the clock as it now is;
/// - smaller changes are drift: they are followed for reporting (`driftNanoseconds`, since the anchor) but the anchor
///   stays, so boundaries inside a clip keep one phase; `Change.drifted` tells when the drift passes `driftLimit`,
///   and the caller re-anchors (`reanchor()`) where a phase change does no harm.
public struct SharedClockMapping: Sendable, Equatable {
    /// What a reading told.
    public enum Change: Sendable, Equatable {
        /// The first reading: the mapping is anchored on it.
        case anchored
        /// The offset moved by no more than noise or drift; `driftNanoseconds` is the total since the anchor.
        case steady(driftNanoseconds: Int64)
        /// The total drift since the anchor passed `driftLimit`; the anchor stays until `reanchor()`.
        case drifted(driftNanoseconds: Int64)
        /// The shared clock jumped by `byNanoseconds` (positive: forward) against the capture clock; the mapping
        /// is anchored on the new offset already.
        case stepped(byNanoseconds: Int64)
    }

    /// The largest change between two readings that is still not a step, beyond the kernel's slew.
    public var stepThreshold: Int64
    /// The total drift past which `update` says `drifted`.
    public var driftLimit: Int64
    /// The fastest the kernel slews a clock: 500 ppm (`adjtimex`'s frequency limit).
    public static let maximumSlewPartsPerMillion: Int64 = 500

    /// Realtime minus capture, nanoseconds, as anchored; `nil` before the first reading.
    public private(set) var anchorOffsetNanoseconds: Int64?
    /// The latest reading's offset.
    public private(set) var latestOffsetNanoseconds: Int64?
    /// The latest reading itself.
    public private(set) var latestReading: ClockReading?
    /// Every step noticed, in order.
    public private(set) var steps: [Step] = []

    /// One step of the shared clock: when it was noticed (the capture time of the reading that showed it) and by
    /// how much the shared clock jumped.
    public struct Step: Sendable, Equatable {
        public var capture: MediaTime
        public var byNanoseconds: Int64
    }

    /// A mapping that calls a change above `stepThreshold` (default 1 ms: far beyond the delay between two
    /// `clock_gettime` calls, far below any step worth making) a step.
    public init(stepThreshold: Int64 = 1_000_000, driftLimit: Int64 = 1_000_000) {
        self.stepThreshold = stepThreshold
        self.driftLimit = driftLimit
    }

    /// Takes a new reading (readings come in capture-clock order).
    public mutating func update(_ reading: ClockReading) -> Change {
        let offset = Self.offset(of: reading)
        defer {
            latestOffsetNanoseconds = offset
            latestReading = reading
        }
        guard let anchor = anchorOffsetNanoseconds, let previous = latestOffsetNanoseconds,
              let previousReading = latestReading else {
            anchorOffsetNanoseconds = offset
            return .anchored
        }
        let elapsed = Self.nanoseconds(reading.capture) &- Self.nanoseconds(previousReading.capture)
        let slew = elapsed.magnitude / 1_000_000 * UInt64(Self.maximumSlewPartsPerMillion)
        let jump = offset &- previous
        if jump.magnitude > UInt64(stepThreshold) &+ slew {
            anchorOffsetNanoseconds = offset
            steps.append(Step(capture: reading.capture, byNanoseconds: jump))
            return .stepped(byNanoseconds: jump)
        }
        let drift = offset &- anchor
        return drift.magnitude > UInt64(driftLimit) ? .drifted(driftNanoseconds: drift)
            : .steady(driftNanoseconds: drift)
    }

    /// Anchors on the latest reading: the drift is taken up, and the grid's phase on the capture clock moves.
    public mutating func reanchor() {
        anchorOffsetNanoseconds = latestOffsetNanoseconds
    }

    /// The drift since the anchor (latest offset minus anchored offset); 0 before any reading.
    public var driftNanoseconds: Int64 {
        guard let a = anchorOffsetNanoseconds, let l = latestOffsetNanoseconds else { return 0 }
        return l &- a
    }

    /// The capture time of the shared instant `realtime`, on the anchored offset; `nil` before the first reading.
    public func capture(forRealtime realtime: Int64) -> MediaTime? {
        anchorOffsetNanoseconds.map { .nanoseconds(realtime &- $0) }
    }

    /// The shared instant of capture time `capture`, on the anchored offset; `nil` before the first reading.
    public func realtime(forCapture capture: MediaTime) -> Int64? {
        anchorOffsetNanoseconds.map { Self.nanoseconds(capture) &+ $0 }
    }

    /// Realtime minus capture, in nanoseconds.
    static func offset(of reading: ClockReading) -> Int64 {
        reading.realtimeNanoseconds &- nanoseconds(reading.capture)
    }

    /// A capture time in whole nanoseconds (rounded to the nearest; clamped far beyond any clock's range).
    static func nanoseconds(_ time: MediaTime) -> Int64 {
        (try? time.rescaled(to: 1_000_000_000, rounding: .nearest).value) ?? (time.value < 0 ? .min : .max)
    }
}
