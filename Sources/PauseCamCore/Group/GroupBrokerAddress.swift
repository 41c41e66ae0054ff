/// Where the group's MQTT broker listens, as written in the rig's `group: {broker: …}`: `mqtt://HOST[:PORT]`
/// (plain TCP, port 1883 by default) or `mqtts://HOST[:PORT]` (TLS, port 8883 by default). HOST is a name, an IPv4
/// literal or a bracketed IPv6 literal; Core resolves nothing, libmosquitto does when it connects.
public struct GroupBrokerAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host name or IP literal, without brackets.
    public var host: String
    /// The TCP port (1883 for `mqtt://`, 8883 for `mqtts://` unless written).
    public var port: Int
    /// The connection is TLS (`mqtts://`).
    public var tls: Bool

    public init(host: String, port: Int, tls: Bool) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// What the rig must write: the message's second half when the URL is wrong.
    public static let syntax = "mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (e.g. mqtt://broker.local:1883)"

    /// Parses a broker URL; `nil` when it has another scheme, no host, a path, credentials (they belong in
    /// `username`/`password_file`, not in a rig that is shared), or a port outside 1…65535.
    public init?(_ text: String) {
        let tls: Bool
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst("mqtt://".count)
        } else if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst("mqtts://".count)
        } else {
            return nil
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.contains("/"), !authority.contains("@"), !authority.isEmpty else { return nil }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") })
            else { return nil }
        }
        guard !host.isEmpty else { return nil }
        var port = tls ? 8883 : 1883
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let p = Int(portText),
                  (1...65535).contains(p) else { return nil }
            port = p
        }
        self.init(host: String(host), port: port, tls: tls)
    }

    /// The URL again, with the port always written: `mqtt://broker.local:1883`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "mqtts" : "mqtt")://\(shownHost):\(port)"
    }
}
