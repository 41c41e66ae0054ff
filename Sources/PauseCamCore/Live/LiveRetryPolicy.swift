/// When a live destination that refused or dropped is tried again: after 1 s, then 2, 4, 8, 16, and every 30 s
/// from then on, so a destination that is down for long costs one attempt a half minute and one that blinked is back
/// within a second. Pure: the stream output counts its failures and waits what this says.
public struct LiveRetryPolicy: Sendable, Equatable {
    /// The first wait.
    public var first: MediaTime
    /// The longest wait.
    public var longest: MediaTime

    public init(first: MediaTime = .seconds(1), longest: MediaTime = .seconds(30)) {
        self.first = first
        self.longest = longest
    }

    /// The wait before attempt number `failures + 1`, after `failures` failed ones in a row (1 or more): `first`
    /// doubled each time, at most `longest`. Any count, however large, gives `longest` (no overflow).
    public func delay(afterFailures failures: Int) -> MediaTime {
        var delay = first
        var doublings = max(0, failures - 1)
        while doublings > 0 && delay < longest {
            delay = delay + delay
            doublings -= 1
        }
        return MediaTime.min(delay, longest)
    }
}
