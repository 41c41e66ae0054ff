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

    /// Why a text is not a broker URL, for the user.
    public struct Problem: Error, Sendable, Equatable {
        public var reason: String
    }

    /// Parses a broker URL; `nil` when it is not one (`init(parsing:)` says why).
    public init?(_ text: String) {
        guard let address = try? GroupBrokerAddress(parsing: text) else { return nil }
        self = address
    }

    /// Parses a broker URL: refused with the reason when it has another scheme, no host, a path, credentials (they
    /// belong in `username`/`password_file`, not in a rig that is shared, nor in logs), or a port outside 1…65535.
    /// The one parser of broker URLs (the MQTT client's `MQTTBrokerAddress` takes its answer).
    public init(parsing text: String) throws(Problem) {
        let tls: Bool
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst("mqtt://".count)
        } else if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst("mqtts://".count)
        } else {
            throw Problem(reason: "it must start with mqtt:// or mqtts://")
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        if authority.contains("/") || authority.contains("?") || authority.contains("#") {
            throw Problem(reason: "a broker address has no path")
        }
        if authority.contains("@") {
            throw Problem(reason: "credentials do not go in the address (use username and password_file)")
        }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw Problem(reason: "the IPv6 address has no closing ]")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw Problem(reason: "expected :PORT after ]") }
                portText = after.dropFirst()
            }
            // Hex digits, colons and dots, and a zone after `%` (`fe80::1%25eth0`, URL-escaped as RFC 6874 says).
            let address = host.split(separator: "%", maxSplits: 1).first ?? ""
            guard address.contains(":"), address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }),
                  host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ":.%_-".contains($0)) }) else {
                throw Problem(reason: "[\(host)] is not an IPv6 address")
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") })
            else { throw Problem(reason: "\"\(host)\" is not a host name or an IP address") }
        }
        guard !host.isEmpty else { throw Problem(reason: "it names no host") }
        var port = tls ? 8883 : 1883
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let p = Int(portText), (1...65535).contains(p) else {
                throw Problem(reason: "the port must be a number from 1 to 65535")
            }
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
