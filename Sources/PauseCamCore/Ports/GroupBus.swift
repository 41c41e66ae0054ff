/// One message to or from the group's broker.
public struct GroupBusMessage: Sendable, Equatable {
    /// The MQTT topic, e.g. `pausecam/studio/command`.
    public var topic: String
    public var payload: [UInt8]
    /// Publishing: keep it as the topic's last message on the broker. Receiving: it was such a kept message.
    public var retained: Bool

    public init(topic: String, payload: [UInt8], retained: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
    }
}

/// What the connection to the broker tells a member, in order, on the bus's own thread.
public enum GroupBusEvent: Sendable, Equatable {
    case connected
    case lost(reason: String)
    case message(GroupBusMessage)
}

/// Publish and subscribe with the group's broker: MQTT (libmosquitto) in the product, in memory in tests.
public protocol GroupBus: AnyObject, Sendable {
    /// Connects (and after a loss reconnects with backoff, subscribing again); every event goes to `events`.
    /// `will` is published by the broker when this member vanishes without saying goodbye.
    func start(subscriptions: [String], will: GroupBusMessage?,
               events: @escaping @Sendable (GroupBusEvent) -> Void) throws
    /// Publishes at QoS 1 (`message.retained` sets the retain flag).
    func publish(_ message: GroupBusMessage) throws
    /// Says goodbye (no will) and stops the connection's thread; no event after it returns.
    func stop()
}
