/// Lets each (sender, sequence number) through once. MQTT's QoS 1 delivers at least once, and a broker that comes
/// back may deliver again what a member already applied; a replayed capture of the traffic must not start a second
/// take either. A sender's numbers grow (`GroupCommandMessage.seq`) and QoS 1 keeps one sender's order, so a number
/// above the highest seen is new. A number at or below it is new only if it was not seen lately and its message is
/// fresh (its instant not older than `GroupMember.replayWindow`): anyone can publish under any name, and a stranger
/// who claims a sender's numbers are far ahead (up to the decoder's limit, 2^53) must not make that sender's real,
/// lower numbers look like replays; a captured message played back later is stale and still refused.
public struct GroupSequenceFilter: Sendable, Equatable {
    /// How many of each sender's latest numbers are remembered for duplicates below the highest.
    public static let remembered = 256

    /// The highest sequence number let through, per sender.
    public private(set) var highest: [String: UInt64] = [:]
    /// Each sender's latest numbers let through, oldest first (at most `remembered`).
    private var recent: [String: [UInt64]] = [:]
    /// Messages refused as duplicates or replays.
    public private(set) var duplicates = 0

    public init() {}

    /// Whether to apply the message `seq` of `sender`, whose instant is `fresh` (not older than the replay window):
    /// true the first time; false for a number seen lately, or for a stale one at or below the sender's highest
    /// (counted in `duplicates`).
    public mutating func admit(from sender: String, seq: UInt64, fresh: Bool) -> Bool {
        let seen = recent[sender, default: []]
        let isNew: Bool
        if let last = highest[sender], seq <= last {
            isNew = fresh && !seen.contains(seq)
        } else {
            isNew = true
        }
        guard isNew else {
            duplicates += 1
            return false
        }
        highest[sender] = max(seq, highest[sender] ?? 0)
        var kept = seen
        kept.append(seq)
        if kept.count > Self.remembered { kept.removeFirst(kept.count - Self.remembered) }
        recent[sender] = kept
        return true
    }
}
