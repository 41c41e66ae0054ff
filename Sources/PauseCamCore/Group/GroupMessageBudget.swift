/// How much of what strangers publish a member takes, on its own clock: anyone who can publish to the group's broker
/// can publish ten thousand messages, and a member must neither print a line for each nor carry out each.
///
/// Two token buckets over one clock (nanoseconds of the member's capture clock, read by the caller):
/// - **commands** from other senders: a burst of `commandBurst`, then `commandsPerSecond`; the rest are refused and
///   counted (`GroupDropReason.overRate`). A person, a pedal, a script or `ctl` stays far inside it; a flood of marks
///   or chapters cannot fill the sidecar or stall the recording. The member's own commands never pass here.
/// - **warnings** about ignored messages: `warningBurst` at once, then `warningsPerMinute`; the rest are held and
///   told as one line (`held`), every message still counted in the sidecar.
///
/// Pure and exact (integer nanoseconds); a clock that goes backwards adds nothing.
public struct GroupMessageBudget: Sendable, Equatable {
    /// Commands from others taken at once after a quiet spell.
    public static let commandBurst = 20
    /// Commands from others taken per second, after the burst.
    public static let commandsPerSecond = 5
    /// Warnings about ignored messages told at once.
    public static let warningBurst = 5
    /// Warnings told per minute, after the burst.
    public static let warningsPerMinute = 6

    private var commands = Bucket(capacity: commandBurst, refillNanoseconds: 1_000_000_000 / Int64(commandsPerSecond))
    private var warnings = Bucket(capacity: warningBurst, refillNanoseconds: 60_000_000_000 / Int64(warningsPerMinute))
    /// Warnings held back since the last one told.
    public private(set) var held = 0

    public init() {}

    /// Whether to carry out one more command from another sender at `now`; false: refuse it (and count it).
    public mutating func takesCommand(atNanoseconds now: Int64) -> Bool { commands.take(at: now) }

    /// Whether to tell one more warning at `now`; false: it is held (`held` grows).
    public mutating func tellsWarning(atNanoseconds now: Int64) -> Bool {
        if warnings.take(at: now) { return true }
        held += 1
        return false
    }

    /// The warnings held back, once the budget allows a line for them at `now` (and `held` starts again); `nil`
    /// when none are held or no line is allowed yet.
    public mutating func heldWarnings(atNanoseconds now: Int64) -> Int? {
        guard held > 0, warnings.take(at: now) else { return nil }
        defer { held = 0 }
        return held
    }

    /// A token bucket: `capacity` tokens, one more every `refillNanoseconds`, full at the start.
    private struct Bucket: Sendable, Equatable {
        let capacity: Int
        let refillNanoseconds: Int64
        var tokens: Int
        /// The clock at which the next token's refill began; `nil` before the first `take`.
        var since: Int64?

        init(capacity: Int, refillNanoseconds: Int64) {
            self.capacity = capacity
            self.refillNanoseconds = max(1, refillNanoseconds)
            tokens = capacity
        }

        mutating func take(at now: Int64) -> Bool {
            if let since {
                let difference = now.subtractingReportingOverflow(since)
                let elapsed = now <= since ? 0 : (difference.overflow ? Int64.max : difference.partialValue)
                let earned = elapsed / refillNanoseconds
                if earned > 0 {
                    let room = Int64(capacity - tokens)
                    tokens += Int(min(earned, room))
                    // A full bucket starts its next refill now; otherwise the remainder carries over (earned is
                    // below room here, so the product stays under the elapsed time).
                    self.since = tokens == capacity ? now : since + earned * refillNanoseconds
                }
            } else {
                since = now
            }
            guard tokens > 0 else { return false }
            if tokens == capacity { since = now }
            tokens -= 1
            return true
        }
    }
}
