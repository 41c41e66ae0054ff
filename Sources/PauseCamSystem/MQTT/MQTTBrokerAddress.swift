import PauseCamCore

/// Where the group's broker listens, from a URL: `mqtt://HOST[:PORT]` (plain TCP, port 1883 by default) or
/// `mqtts://HOST[:PORT]` (TLS, port 8883 by default), the two schemes and ports Mosquitto's own clients use.
/// HOST is a name, an IPv4 literal, or an IPv6 literal in brackets. Credentials never go in the URL (a URL ends
/// up in logs and sidecars): they are the group's `username` and `password_file`.
public struct MQTTBrokerAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host name or IP literal (an IPv6 literal without its brackets), as libmosquitto's connect takes it.
    public var host: String
    public var port: Int
    /// The connection uses TLS (`mqtts://`).
    public var usesTLS: Bool

    public init(host: String, port: Int, usesTLS: Bool) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    /// Parses a broker URL (with Core's `GroupBrokerAddress`, the one parser); the error says what is wrong with it.
    public init(url: String) throws(MQTTError) {
        do {
            let address = try GroupBrokerAddress(parsing: url)
            self.init(host: address.host, port: address.port, usesTLS: address.tls)
        } catch {
            throw .badBrokerAddress(url, reason: error.reason)
        }
    }

    /// The address as a URL again, for messages.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "mqtts" : "mqtt")://\(shownHost):\(port)"
    }
}
