/// One group command as a member saw it: the sidecar's `group.commands` entry, so an editor can see when each
/// boundary was meant to fall, when the command arrived, and whether it came late.
public struct GroupCommandRecord: Sendable, Equatable {
    /// What became of it.
    public enum Outcome: String, Sendable, Equatable {
        /// Applied at its effective time.
        case onTime = "on_time"
        /// Arrived after its effective time: applied on arrival, `lateByNanoseconds` later than meant.
        case late
        /// Published while the broker was away: applied on this member only, at once.
        case localOnly = "local_only"
        /// Not applied: `record` on a clock the kernel calls unsynchronised (with `require_sync: true`).
        case refusedUnsynchronised = "refused_unsynchronised"
    }

    /// The sender's name.
    public var from: String
    /// The sender's sequence number.
    public var seq: UInt64
    /// The shell-grammar line.
    public var command: String
    /// The effective time as snapped to the group's grid, CLOCK_REALTIME nanoseconds.
    public var atNanoseconds: Int64
    /// Its slot index on the group's grid (`EpochGrid`).
    public var slot: Int64
    /// When it reached this member, CLOCK_REALTIME nanoseconds.
    public var arrivedNanoseconds: Int64
    /// The capture time it was applied at (the session clock); `nil` when it was not applied.
    public var appliedAt: MediaTime?
    /// Applied on time, late, here only, or refused.
    public var outcome: Outcome
    /// How late it arrived (arrival − at), nanoseconds; 0 unless `outcome` is `late`.
    public var lateByNanoseconds: Int64

    public init(from: String, seq: UInt64, command: String, atNanoseconds: Int64, slot: Int64,
                arrivedNanoseconds: Int64, appliedAt: MediaTime?, outcome: Outcome, lateByNanoseconds: Int64 = 0) {
        self.from = from
        self.seq = seq
        self.command = command
        self.atNanoseconds = atNanoseconds
        self.slot = slot
        self.arrivedNanoseconds = arrivedNanoseconds
        self.appliedAt = appliedAt
        self.outcome = outcome
        self.lateByNanoseconds = lateByNanoseconds
    }
}
