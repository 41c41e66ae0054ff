/// What a `GroupMember` tells its owner besides the commands to apply: for the shell's event lines, the clip's
/// warnings and the sidecar. `text` is the line a user reads.
public enum GroupNotice: Sendable, Equatable {
    /// Connected to the broker for the first time.
    case joined(group: String, broker: String)
    /// The broker went away; recording goes on, and the bus reconnects with backoff.
    case brokerLost(reason: String)
    /// The broker is back after a loss.
    case brokerBack
    /// No connection to the broker could be made yet (nothing listens, no answer, credentials refused); recording
    /// goes on, commands given here apply here only, and the bus goes on trying (unless `reason` says it stopped).
    case brokerUnreachable(reason: String)
    /// A message was ignored (and counted in `GroupMember.drops`).
    case dropped(GroupDropReason, detail: String)
    /// A member says it records at another output rate (its status): its commands are ignored here, and this
    /// member's there. A hint only: this member records at its own rate whatever another status says.
    case rateMismatch(host: String, theirs: String, ours: String, ourHost: String)
    /// Warnings about ignored messages held back since the last one told (`GroupMessageBudget`); every message is
    /// counted in `GroupMember.drops` all the same.
    case heldBack(count: Int)
    /// A command arrived after its effective time and was applied on arrival.
    case late(GroupCommandRecord)
    /// The command could not be published (the broker is away): it was applied on this member only.
    case appliedLocallyOnly(command: String, reason: String)
    /// `record` on a clock the kernel calls unsynchronised: refused (`require_sync: true`) or applied and noted.
    case unsynchronisedRecord(applied: Bool, reason: String)
    /// The clock's health changed (`ClockHealth`): a warning past a quarter frame, or back to good.
    case clockHealth(ClockHealth)
    /// The shared clock stepped against the capture clock; later commands use `phaseAnchor`, which the output
    /// clock should take at its next start or resume (`OutputClock.phaseAnchor`).
    case clockStepped(byNanoseconds: Int64, phaseAnchor: MediaTime)

    /// The line a user reads.
    public var text: String {
        switch self {
        case .joined(let group, let broker): return "joined group \(group) on \(broker)"
        case .brokerLost(let reason):
            return "lost the group's broker (\(reason)); recording goes on and commands given here apply here only "
                + "until it is back"
        case .brokerBack: return "the group's broker is back"
        case .brokerUnreachable(let reason):
            return "no connection to the group's broker yet (\(reason)); recording goes on and commands given "
                + "here apply on this member only until it answers"
        case .dropped(let reason, let detail): return "ignored a group message (\(reason.rawValue)): \(detail)"
        case .rateMismatch(let host, let theirs, let ours, let ourHost):
            return "\(host) records at \(theirs) fps, \(ourHost) at \(ours) fps: each ignores the other's commands "
                + "(\(ourHost) records at its own rate); give every member the same output.fps"
        case .heldBack(let count):
            return "ignored \(count) more group message(s) without a line each (counted in the sidecar's group.dropped)"
        case .late(let record):
            let ms = Double(record.lateByNanoseconds) / 1e6
            return "group command \"\(record.command)\" from \(record.from) arrived "
                + "\(String(format: "%.1f", ms)) ms after its time and was applied on arrival; a longer group.lead "
                + "avoids that"
        case .appliedLocallyOnly(let command, let reason):
            return "\"\(command)\" applied on this member only: \(reason)"
        case .unsynchronisedRecord(let applied, let reason):
            return applied ? "record on an unsynchronised clock (require_sync: false): \(reason)"
                : "record refused: \(reason)"
        case .clockHealth(.ok): return "the system clock is synchronised within a quarter frame again"
        case .clockHealth(.warn(let message)), .clockHealth(.unsynchronised(let message)): return message
        case .clockStepped(let by, _):
            return "the system clock stepped by \(String(format: "%.3f", Double(by) / 1e9)) s during the session; "
                + "group boundaries follow the new time from the next start or resume"
        }
    }
}
