import PauseCamCore

/// Messages other threads hand a line reader while it owns the terminal's line (a line being typed, the live
/// status), kept until the reading thread prints them above that line.
///
/// Bounded: at most `limit` wait. The reading thread takes them within a fraction of a second (it is woken at
/// once, and polls every `LibEditLineReader.refreshMilliseconds` anyway), so the bound only matters when it cannot
/// print (a terminal that stopped reading): then the oldest go first (`.dropOldest`: the newest events say most
/// about now), and the next `take` says how many went, so nothing is lost silently.
final class AboveLineMessages: Sendable {
    /// How many messages wait at most: screens of them, far more than a burst of engine events.
    static let defaultLimit = 256

    private let channel: BoundedChannel<String>

    init(limit: Int = AboveLineMessages.defaultLimit) {
        channel = BoundedChannel(capacity: max(1, limit), policy: .dropOldest)
    }

    /// Keeps `text` for the reading thread; never waits (a full queue drops its oldest message).
    func add(_ text: String) {
        channel.send(text)
    }

    /// Every waiting message, oldest first, led by a line that says how many were dropped since the last take.
    /// Never waits.
    func take() -> [String] {
        let drained = channel.drain()
        guard drained.dropped > 0 else { return drained.items }
        let count = drained.dropped == 1 ? "1 earlier message was" : "\(drained.dropped) earlier messages were"
        return ["(\(count) dropped: the terminal did not keep up)"] + drained.items
    }
}
