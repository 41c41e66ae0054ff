/// The group's frame grid on the shared clock: slot k begins at epoch + k / fps, for every member alike, so a
/// command snapped to a slot lands on the same slot index in every member's movie.
///
/// The epoch is the Unix epoch (CLOCK_REALTIME 0) unless given: every member computes the same grid from its rig's
/// `output.fps` alone, with nothing to agree on or to lose (a member that joins late, or a broker that restarts,
/// cannot miss an epoch that is never sent), and integer arithmetic keeps it exact so far from 1970 (slot indices
/// near 5 × 10¹⁰ at 30 fps: products are taken in 128 bits).
///
/// Instants are whole nanoseconds, the resolution of `clock_gettime`. A slot's exact start is rarely a whole
/// nanosecond (1001/30000 s is not), so a slot's instant is the first nanosecond at or after it: slot k holds the
/// nanoseconds t with `instant(ofSlot: k) <= t < instant(ofSlot: k + 1)`.
public struct EpochGrid: Sendable, Equatable {
    /// The output rate every member of the group records at.
    public var rate: FrameRate
    /// Slot 0's instant, CLOCK_REALTIME nanoseconds.
    public var epochNanoseconds: Int64

    public init(rate: FrameRate, epochNanoseconds: Int64 = 0) {
        self.rate = rate
        self.epochNanoseconds = epochNanoseconds
    }

    private static let nanosecondsPerSecond: Int128 = 1_000_000_000

    /// The slot that holds the nanosecond `t`: floor((t − epoch) × fps).
    public func slot(containing t: Int64) -> Int64 {
        let ticks = (Int128(t) - Int128(epochNanoseconds)) * Int128(rate.numerator)
        return Int64(clamping: Self.floorDivide(ticks, Int128(rate.denominator) * Self.nanosecondsPerSecond))
    }

    /// The first slot whose instant is at or after `t`: where a command given for `t` takes effect.
    public func slot(atOrAfter t: Int64) -> Int64 {
        // instant(k) >= t  ⟺  exact start of k > t − 1 ns, so k = floor((t − 1 − epoch) × fps) + 1.
        let ticks = (Int128(t) - 1 - Int128(epochNanoseconds)) * Int128(rate.numerator)
        let below = Self.floorDivide(ticks, Int128(rate.denominator) * Self.nanosecondsPerSecond)
        return Int64(clamping: below + 1)
    }

    /// The first nanosecond of slot `k`: epoch + ceil(k / fps); `nil` when it lies beyond an `Int64`.
    public func instant(ofSlot k: Int64) -> Int64? {
        let exact = Int128(k) * Int128(rate.denominator) * Self.nanosecondsPerSecond
        let offset = -Self.floorDivide(-exact, Int128(rate.numerator))
        return Int64(exactly: offset + Int128(epochNanoseconds))
    }

    /// `t` moved to the start of the first slot at or after it (`t` itself when it is one).
    public func snapped(_ t: Int64) -> Int64? { instant(ofSlot: slot(atOrAfter: t)) }

    /// When a command given at `now` with `lead` takes effect: the first slot at or after now + lead (what a member
    /// and `ctl --group` publish as `at_ns`).
    public func effectiveTime(now: Int64, lead: MediaTime) -> Int64 {
        let leadNanoseconds = SharedClockMapping.nanoseconds(lead)
        let target = now.addingReportingOverflow(leadNanoseconds)
        return target.overflow ? now : (snapped(target.partialValue) ?? target.partialValue)
    }

    /// Division rounding toward −∞ (Swift's `/` rounds toward zero).
    private static func floorDivide(_ a: Int128, _ b: Int128) -> Int128 {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        return (r != 0 && (r < 0) != (b < 0)) ? q - 1 : q
    }
}
