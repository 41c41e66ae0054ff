/// The OSC endpoint's policy, without the socket: which senders are read, how many messages, what each one asks
/// for, what is answered, who subscribes, and what feedback goes where. The socket's thread (PauseCamSystem's
/// `OSCServer`) hands it every packet and sends what it returns.
///
/// A command is checked with the control socket's `ControlRequest.parse` (the same grammar, the same refusals:
/// `wait` and the shell's own commands) and carried out by `carryOut`, which the composition root makes from the
/// socket's `ControlDispatcher`, so an OSC command gets exactly the reply `pausecam ctl` would. A line the grammar
/// refuses is junk (`refused`); a command the engine declines ("pause while idle") is a command like any other,
/// answered with its reply.
///
/// Safe from any thread: its state is in one `Guarded`. `carryOut` is called outside the lock.
public final class OSCResponder: Sendable {
    /// A message to send and where.
    public struct Outgoing: Sendable, Equatable {
        public var message: OSCMessage
        public var destination: OSCPeer
        public init(_ message: OSCMessage, to destination: OSCPeer) {
            self.message = message
            self.destination = destination
        }
    }

    /// The most clients that may subscribe at once; a new one then replaces the oldest.
    public static let maximumSubscribers = 16

    public let settings: OSCSettings
    public let counters: OSCCounters
    private let parser: CommandParser
    private let carryOut: @Sendable (String) -> ControlReply

    private struct State {
        var budget = OSCMessageBudget()
        /// Clients that subscribed, oldest first.
        var subscribed: [OSCPeer] = []
        /// The state last sent, for the changes and for a new subscriber.
        var lastState: OSCFeedbackState?
    }

    private let state = Guarded(State())

    /// `carryOut` carries out one line of the grammar (already checked) and returns its reply.
    public init(settings: OSCSettings, parser: CommandParser, counters: OSCCounters = OSCCounters(),
                carryOut: @escaping @Sendable (String) -> ControlReply) {
        self.settings = settings
        self.parser = parser
        self.counters = counters
        self.carryOut = carryOut
        counters.setSubscribers(settings.feedback.count)
    }

    /// Everyone who gets feedback: the rig's `feedback`, then the clients that subscribed.
    public var subscribers: [OSCPeer] {
        let subscribed = state.withLock { $0.subscribed }
        return settings.feedback + subscribed.filter { !settings.feedback.contains($0) }
    }

    /// One packet from `sender` at `now` (a monotonic clock's nanoseconds): the message liblo read, or why it read
    /// none. Returns the replies to send. A sender the settings do not accept is counted and never answered; beyond
    /// the budget a packet is counted and dropped; junk is counted and answered with `/pausecam/error`.
    public func handle(_ packet: Result<OSCMessage, OSCRejection>, from sender: OSCPeer,
                       atNanoseconds now: Int64) -> [Outgoing] {
        guard settings.accepts(sender.host) else {
            counters.count(.notAllowed)
            return []
        }
        guard state.withLock({ $0.budget.takes(atNanoseconds: now) }) else {
            counters.count(.overRate)
            return []
        }
        let message: OSCMessage
        switch packet {
        case .failure(let reason):
            counters.count(reason)
            return [Outgoing(OSCFeedback.error(address: "", reason: reason), to: sender)]
        case .success(let m): message = m
        }
        switch OSCRequest.parse(message) {
        case .failure(let reason):
            counters.count(reason)
            return [Outgoing(OSCFeedback.error(address: message.address, reason: reason), to: sender)]
        case .success(.release):
            counters.countHandled()
            return []
        case .success(.subscribe(let port)):
            counters.countHandled()
            return subscribe(OSCPeer(host: sender.host, port: port ?? sender.port), replyTo: sender)
        case .success(.unsubscribe(let port)):
            counters.countHandled()
            let peer = OSCPeer(host: sender.host, port: port ?? sender.port)
            let count = state.withLock { state in
                state.subscribed.removeAll { $0 == peer }
                return state.subscribed.count
            }
            counters.setSubscribers(settings.feedback.count + count)
            return [Outgoing(OSCFeedback.reply(word: "unsubscribe", ok: true, message: "no more feedback to \(peer)"),
                             to: sender)]
        case .success(.command(let word, let line)):
            if case .failure(let failure) = ControlRequest.parse(line, parser: parser) {
                counters.count(.refused)
                return [Outgoing(OSCFeedback.reply(word: word, ok: false, message: failure.message), to: sender)]
            }
            counters.countHandled()
            let reply = carryOut(line)
            return [Outgoing(OSCFeedback.reply(word: word, ok: reply.ok, message: Self.oneLine(reply.message)),
                             to: sender)]
        }
    }

    /// The feedback for `newState` to every subscriber: everything (`everything`, once a second) or what changed
    /// since the last call.
    public func feedback(_ newState: OSCFeedbackState, everything: Bool) -> [Outgoing] {
        let old = state.withLock { state -> OSCFeedbackState? in
            defer { state.lastState = newState }
            return state.lastState
        }
        let messages = everything ? OSCFeedback.all(newState) : OSCFeedback.changes(from: old, to: newState)
        guard !messages.isEmpty else { return [] }
        return subscribers.flatMap { peer in messages.map { Outgoing($0, to: peer) } }
    }

    private func subscribe(_ peer: OSCPeer, replyTo sender: OSCPeer) -> [Outgoing] {
        let (count, last) = state.withLock { state -> (Int, OSCFeedbackState?) in
            if !state.subscribed.contains(peer) && !settings.feedback.contains(peer) {
                if state.subscribed.count >= Self.maximumSubscribers { state.subscribed.removeFirst() }
                state.subscribed.append(peer)
            }
            return (state.subscribed.count, state.lastState)
        }
        counters.setSubscribers(settings.feedback.count + count)
        let reply = Outgoing(OSCFeedback.reply(word: "subscribe", ok: true, message: "feedback to \(peer)"), to: sender)
        return [reply] + (last.map(OSCFeedback.all) ?? []).map { Outgoing($0, to: peer) }
    }

    /// A reply over several lines joined as the control socket joins them.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " | ")
    }
}
