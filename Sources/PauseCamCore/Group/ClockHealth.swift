/// Whether this member's clock is good enough for frame-accurate group boundaries at the rig's rate: members land
/// on the same slot as long as their clocks agree within a quarter frame, so that is the warning line; a clock no
/// time service disciplines cannot be placed on the group's grid at all, so `record` is refused on it unless the
/// rig says `require_sync: false`.
public enum ClockHealth: Sendable, Equatable {
    /// Synchronised, with an estimated error within a quarter frame.
    case ok
    /// The estimated error passes a quarter frame; the message says by how much and what to do.
    case warn(String)
    /// The kernel says the clock is unsynchronised.
    case unsynchronised(String)

    /// The verdict on `status` for a group recording at `rate`; `requireSync: false` (the rig allows an
    /// unsynchronised clock already) leaves that advice out of the message.
    public static func judge(_ status: ClockSynchronisation, rate: FrameRate, requireSync: Bool = true) -> ClockHealth {
        if status.unsynchronised {
            return .unsynchronised(requireSync
                ? "the system clock is not synchronised (adjtimex reports STA_UNSYNC), so this member refuses to "
                    + "start recording (group: {require_sync: true}): start chrony or ptp4l with phc2sys, or write "
                    + "group: {require_sync: false} to record on it anyway"
                : "the system clock is not synchronised (adjtimex reports STA_UNSYNC): this member records all the "
                    + "same (require_sync: false), but its boundaries may land frames apart from the group's; start "
                    + "chrony or ptp4l with phc2sys")
        }
        // esterror µs > den / (4 × num) s  ⟺  esterror × 4 × num > den × 10⁶, exactly.
        let error = Int128(status.estimatedErrorMicroseconds) * 4 * Int128(rate.numerator)
        let quarter = Int128(rate.denominator) * 1_000_000
        if error > quarter {
            let quarterMicroseconds = Int64(quarter / (4 * Int128(rate.numerator)))
            return .warn("the system clock's estimated error is \(status.estimatedErrorMicroseconds) µs, more than a "
                         + "quarter frame at \(rate) fps (\(quarterMicroseconds) µs): boundaries may land a frame "
                         + "apart across the group; a PTP or NTP server nearer on the network helps")
        }
        return .ok
    }

    /// Whether `record` may start with this verdict.
    public func allowsRecord(requireSync: Bool) -> Bool {
        if case .unsynchronised = self { return !requireSync }
        return true
    }
}
