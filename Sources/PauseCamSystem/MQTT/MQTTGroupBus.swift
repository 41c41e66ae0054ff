import PauseCamCore

/// The group's bus in the product: an `MQTTClient` (libmosquitto, MQTT 5, QoS 1) behind the `GroupBus` port, so the
/// core's group member never sees MQTT. A refusal (credentials, a refused subscription, another member with the same
/// identifier) arrives as `lost` with a reason that says it is final and what to fix; the client does not retry it.
public final class MQTTGroupBus: GroupBus {
    private let client: MQTTClient

    /// A bus on the broker at `url` (`mqtt://HOST[:PORT]`, `mqtts://HOST[:PORT]`) as `clientID`, with a user name and
    /// a password file when the broker requires them. Throws for a bad address, an unreadable password file or
    /// unusable TLS files: mistakes in the rig that no retry fixes.
    public convenience init(url: String, clientID: String, username: String? = nil, passwordFile: String? = nil,
                            tls: MQTTClient.TLSFiles = MQTTClient.TLSFiles()) throws(MQTTError) {
        let broker = try MQTTBrokerAddress(url: url)
        let password: String? = if let passwordFile { try MQTTPasswordFile.read(path: passwordFile) } else { nil }
        try self.init(options: MQTTClient.Options(broker: broker, clientID: clientID, username: username,
                                                  password: password, tls: tls))
    }

    /// A bus with every client option given.
    public init(options: MQTTClient.Options) throws(MQTTError) {
        client = try MQTTClient(options: options)
    }

    public func start(subscriptions: [String], will: GroupBusMessage?,
                      events: @escaping @Sendable (GroupBusEvent) -> Void) throws {
        try client.start(subscriptions: subscriptions, will: will) { event in
            switch event {
            case .connected: events(.connected)
            case .lost(let error): events(.lost(reason: error.description))
            case .refused(let error): events(.lost(reason: "\(error.description) (not retrying)"))
            case .message(let message): events(.message(message))
            }
        }
    }

    public func publish(_ message: GroupBusMessage) throws {
        try client.publish(message)
    }

    public func stop() {
        client.stop()
    }
}
