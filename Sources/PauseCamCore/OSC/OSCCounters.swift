/// How many OSC messages arrived and what became of them, for the status (`osc` in `status --json`): counted on the
/// OSC thread, read on the serial context. Shared state in one `Guarded`.
public final class OSCCounters: Sendable {
    private let counts: Guarded<OSCCounts>

    /// `listen` is the address the endpoint listens on, as the status shows it.
    public init(listen: String = "") { counts = Guarded(OSCCounts(listen: listen)) }

    /// A message carried out or answered (a command, a subscription, a button's release).
    public func countHandled() { counts.withLock { $0.handled += 1 } }

    /// A message refused for `reason`.
    public func count(_ reason: OSCRejection) {
        counts.withLock { $0.junk[reason.name, default: 0] += 1 }
    }

    /// The address the endpoint listens on, once bound (with the port the system chose for 0).
    public func setListen(_ address: String) { counts.withLock { $0.listen = address } }

    /// The subscribers now (the rig's `feedback` and the clients that subscribed).
    public func setSubscribers(_ count: Int) { counts.withLock { $0.subscribers = count } }

    /// The counts so far.
    public var snapshot: OSCCounts { counts.withLock { $0 } }
}

/// The OSC endpoint's figures: the address it listens on, messages handled, junk by reason (`OSCRejection` names),
/// and the subscribers.
public struct OSCCounts: Sendable, Equatable {
    public var listen: String = ""
    public var handled = 0
    public var junk: [String: Int] = [:]
    public var subscribers = 0

    public init(listen: String = "", handled: Int = 0, junk: [String: Int] = [:], subscribers: Int = 0) {
        self.listen = listen
        self.handled = handled
        self.junk = junk
        self.subscribers = subscribers
    }

    /// Every junk message, whatever the reason.
    public var junkTotal: Int { junk.values.reduce(0, +) }
}
