import PauseCamCore

/// One client of a `VirtualGroupBroker`: the `GroupBus` a `GroupMember` talks through in tests and benchmarks.
/// Its events run when the broker's `deliver()` runs them (see `VirtualGroupBroker`).
public final class VirtualGroupBus: GroupBus {
    /// Why a publish failed.
    public enum Failure: Error, Sendable, Equatable {
        /// The broker is away (`VirtualGroupBroker.goAway`).
        case brokerAway
    }

    private let broker: VirtualGroupBroker

    init(broker: VirtualGroupBroker) { self.broker = broker }

    public func start(subscriptions: [String], will: GroupBusMessage?,
                      events: @escaping @Sendable (GroupBusEvent) -> Void) throws {
        broker.start(self, subscriptions: subscriptions, will: will, events: events)
    }

    public func publish(_ message: GroupBusMessage) throws {
        try broker.publish(message)
    }

    public func stop() {
        broker.stop(self)
    }
}
