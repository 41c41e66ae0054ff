/// Lets each (sender, sequence number) through once. MQTT's QoS 1 delivers at least once, and a broker that comes
/// back may deliver again what a member already applied; a replayed capture of the traffic must not start a second
/// take either. A sender's numbers grow (`GroupCommandMessage.seq`), and QoS 1 keeps one sender's order, so the
/// highest number seen per sender is the whole memory: anything at or below it was applied or is stale.
public struct GroupSequenceFilter: Sendable, Equatable {
    /// The highest sequence number let through, per sender.
    public private(set) var highest: [String: UInt64] = [:]
    /// Messages refused as duplicates or replays.
    public private(set) var duplicates = 0

    public init() {}

    /// Whether to apply the message `seq` of `sender`: true the first time, false for that number or a lower one
    /// again (counted in `duplicates`).
    public mutating func admit(from sender: String, seq: UInt64) -> Bool {
        if let last = highest[sender], seq <= last {
            duplicates += 1
            return false
        }
        highest[sender] = seq
        return true
    }
}
