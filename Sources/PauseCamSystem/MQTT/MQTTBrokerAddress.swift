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

    /// Parses a broker URL; the error says what is wrong with it.
    public init(url: String) throws(MQTTError) {
        let usesTLS: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") {
            usesTLS = false
            rest = url.dropFirst("mqtt://".count)
        } else if url.hasPrefix("mqtts://") {
            usesTLS = true
            rest = url.dropFirst("mqtts://".count)
        } else {
            throw .badBrokerAddress(url, reason: "it must start with mqtt:// or mqtts://")
        }
        var authority = rest
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        if authority.contains("/") || authority.contains("?") || authority.contains("#") {
            throw .badBrokerAddress(url, reason: "a broker address has no path")
        }
        if authority.contains("@") {
            throw .badBrokerAddress(url, reason: "credentials do not go in the address (use username and password_file)")
        }
        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .badBrokerAddress(url, reason: "the IPv6 address has no closing ]")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badBrokerAddress(url, reason: "expected :PORT after ]") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw .badBrokerAddress(url, reason: "it names no host") }
        var port = usesTLS ? 8883 : 1883
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw .badBrokerAddress(url, reason: "the port must be a number from 1 to 65535")
            }
            port = number
        }
        self.init(host: String(host), port: port, usesTLS: usesTLS)
    }

    /// The address as a URL again, for messages.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "mqtts" : "mqtt")://\(shownHost):\(port)"
    }
}
