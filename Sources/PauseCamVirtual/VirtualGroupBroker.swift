import PauseCamCore

/// An MQTT broker in memory, for tests and benchmarks of a group on one process: topics with `+` and `#`
/// subscriptions, retained messages, last wills, and a broker that can go away and come back — but no thread of its
/// own. Events wait in each client's queue until `deliver()` runs them, in order, on the caller's thread, so a test
/// decides exactly when messages arrive (after a member's lead time, say, to make a command late).
///
/// The product's bus is MQTT over libmosquitto (PauseCamSystem); this one keeps its rules: QoS 1 delivers every
/// published message to every subscriber, the publisher included; a retained message is kept per topic (an empty
/// payload clears it) and sent, flagged retained, to whoever subscribes later; a client that vanishes without
/// `stop` has its will published.
public final class VirtualGroupBroker: Sendable {
    private struct Client {
        var subscriptions: [String]
        var will: GroupBusMessage?
        var events: @Sendable (GroupBusEvent) -> Void
        var queue: [GroupBusEvent] = []
    }

    private struct State {
        var clients: [ObjectIdentifier: Client] = [:]
        var order: [ObjectIdentifier] = []
        var retained: [String: GroupBusMessage] = [:]
        var up = true
        var published: [GroupBusMessage] = []
    }

    private let state = Guarded(State())

    public init() {}

    /// A new client of this broker (not connected until its `start`).
    public func makeBus() -> VirtualGroupBus { VirtualGroupBus(broker: self) }

    /// Every message published through the broker so far, in order (wills and injected messages included).
    public var published: [GroupBusMessage] { state.withLock { $0.published } }

    /// The retained message of each topic.
    public var retained: [String: GroupBusMessage] { state.withLock { $0.retained } }

    /// Runs every waiting event, client by client in the order they connected, until no client has one; events an
    /// event causes (a member publishing in reaction) run in the same call. Returns how many ran.
    @discardableResult
    public func deliver() -> Int {
        var count = 0
        while let (event, handler) = nextEvent() {
            handler(event)
            count += 1
        }
        return count
    }

    /// Publishes `message` as a stranger would (another tool on the network, a replay of captured traffic).
    public func inject(_ message: GroupBusMessage) {
        state.withLock { route(message, in: &$0) }
    }

    /// The broker stops: every client gets `lost`, waiting messages are gone, publishing fails until `comeBack`.
    public func goAway(reason: String = "connection refused") {
        state.withLock { s in
            s.up = false
            for id in s.order { s.clients[id]?.queue = [.lost(reason: reason)] }
        }
    }

    /// The broker is back: every client reconnects (`connected`) and gets the retained messages it subscribes to.
    public func comeBack() {
        state.withLock { s in
            s.up = true
            for id in s.order { connect(id, in: &s) }
        }
    }

    /// `bus`'s client vanishes without saying goodbye (killed, unplugged): its will is published.
    public func vanish(_ bus: VirtualGroupBus) {
        state.withLock { s in
            let id = ObjectIdentifier(bus)
            guard let client = s.clients.removeValue(forKey: id) else { return }
            s.order.removeAll { $0 == id }
            if let will = client.will { route(will, in: &s) }
        }
    }

    // MARK: For VirtualGroupBus

    func start(_ bus: VirtualGroupBus, subscriptions: [String], will: GroupBusMessage?,
               events: @escaping @Sendable (GroupBusEvent) -> Void) {
        state.withLock { s in
            let id = ObjectIdentifier(bus)
            s.clients[id] = Client(subscriptions: subscriptions, will: will, events: events)
            s.order.append(id)
            if s.up { connect(id, in: &s) }
        }
    }

    func publish(_ message: GroupBusMessage) throws(VirtualGroupBus.Failure) {
        try state.withLock { s throws(VirtualGroupBus.Failure) in
            guard s.up else { throw .brokerAway }
            route(message, in: &s)
        }
    }

    func stop(_ bus: VirtualGroupBus) {
        state.withLock { s in
            let id = ObjectIdentifier(bus)
            s.clients[id] = nil
            s.order.removeAll { $0 == id }
        }
    }

    // MARK: Internals

    private func nextEvent() -> (GroupBusEvent, @Sendable (GroupBusEvent) -> Void)? {
        state.withLock { s in
            for id in s.order {
                guard var client = s.clients[id], !client.queue.isEmpty else { continue }
                let event = client.queue.removeFirst()
                s.clients[id] = client
                return (event, client.events)
            }
            return nil
        }
    }

    private func connect(_ id: ObjectIdentifier, in s: inout State) {
        guard var client = s.clients[id] else { return }
        client.queue.append(.connected)
        for topic in s.retained.keys.sorted() {
            guard let message = s.retained[topic],
                  client.subscriptions.contains(where: { Self.matches(filter: $0, topic: topic) }) else { continue }
            client.queue.append(.message(message))
        }
        s.clients[id] = client
    }

    private func route(_ message: GroupBusMessage, in s: inout State) {
        s.published.append(message)
        if message.retained {
            s.retained[message.topic] = message.payload.isEmpty ? nil : message
        }
        var delivered = message
        delivered.retained = false
        for id in s.order {
            guard var client = s.clients[id],
                  client.subscriptions.contains(where: { Self.matches(filter: $0, topic: message.topic) }) else { continue }
            client.queue.append(.message(delivered))
            s.clients[id] = client
        }
    }

    /// MQTT's topic matching: `+` is one level, `#` (last) the rest.
    static func matches(filter: String, topic: String) -> Bool {
        let f = filter.split(separator: "/", omittingEmptySubsequences: false)
        let t = topic.split(separator: "/", omittingEmptySubsequences: false)
        for (i, level) in f.enumerated() {
            if level == "#" { return true }
            guard i < t.count else { return false }
            if level != "+" && level != t[i] { return false }
        }
        return f.count == t.count
    }
}
