/// How many OSC messages PauseCam reads and answers, on its monotonic clock: a burst of `burst`, then `perSecond`.
/// Beyond it a message is dropped unread and counted (`OSCRejection.overRate`), so a flood can neither queue
/// commands on the serial context nor make PauseCam send a reply for each packet. A person, a Stream Deck, a
/// TouchOSC fader or a show controller stays far inside it.
///
/// A token bucket in exact integer nanoseconds; a clock that goes backwards adds nothing.
public struct OSCMessageBudget: Sendable, Equatable {
    /// Messages taken at once after a quiet spell (a fader sweep sends dozens).
    public static let burst = 64
    /// Messages taken per second after the burst.
    public static let perSecond = 50

    private var tokens = OSCMessageBudget.burst
    /// The clock at which the next token began to refill; `nil` before the first message.
    private var since: Int64?

    public init() {}

    /// Whether to read one more message arriving at `now` (nanoseconds of a monotonic clock).
    public mutating func takes(atNanoseconds now: Int64) -> Bool {
        let refill = 1_000_000_000 / Int64(Self.perSecond)
        if let since, now > since {
            let (gap, overflow) = now.subtractingReportingOverflow(since)
            let earned = overflow ? Int64(Self.burst) : gap / refill
            if earned > 0 {
                tokens = Int(min(Int64(Self.burst), Int64(tokens) + earned))
                self.since = tokens == Self.burst ? now : since + earned * refill
            }
        } else if since == nil {
            since = now
        }
        guard tokens > 0 else { return false }
        if tokens == Self.burst { since = now }
        tokens -= 1
        return true
    }
}
