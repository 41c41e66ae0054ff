/// The rig's `osc:` section: where PauseCam listens for OSC, who may talk to it, and who hears its state.
///
/// ```yaml
/// osc:
///   listen: "127.0.0.1:9000"
///   allow: ["127.0.0.1", "192.168.1.20"]   # only with a listen address beyond loopback, or to narrow loopback
///   feedback: ["127.0.0.1:9001"]
/// ```
public struct OSCSettings: Sendable, Equatable {
    /// The UDP address PauseCam listens on (loopback port 9000 by default).
    public var listen: OSCPeer
    /// The senders answered: `nil` for every loopback address (127.0.0.0/8, ::1); a list for exactly those
    /// addresses. A listen address beyond loopback needs a list.
    public var allow: [String]?
    /// Where the state goes from the start, besides the clients that subscribe.
    public var feedback: [OSCPeer]

    /// The listen address when `osc:` names none.
    public static let defaultListen = OSCPeer(host: "127.0.0.1", port: 9000)

    public init(listen: OSCPeer = OSCSettings.defaultListen, allow: [String]? = nil, feedback: [OSCPeer] = []) {
        self.listen = listen
        self.allow = allow
        self.feedback = feedback
    }

    /// Whether a message from `host` (an IP literal as the socket reports it) is read at all.
    public func accepts(_ host: String) -> Bool {
        guard let allow else { return OSCPeer.isLoopback(host) }
        let plain = OSCPeer.unmapped(host)
        return allow.contains { OSCPeer.unmapped($0) == plain }
    }
}

/// A UDP address: an IP literal and a port.
public struct OSCPeer: Sendable, Hashable, CustomStringConvertible {
    /// The IP literal without brackets (`127.0.0.1`, `::1`).
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` as the monitor's `--web` does (an IPv4 literal, `[IPv6]` or `localhost`); `nil` for
    /// anything else. Port 0 is refused when `allowsZero` is false (a destination needs a real port).
    public init?(_ text: String, allowsZero: Bool = true) {
        guard let address = MonitorListenAddress(text), allowsZero || address.port > 0 else { return nil }
        self.init(host: address.host, port: address.port)
    }

    /// Whether `host` is this machine's loopback (127.0.0.0/8, ::1, or either as an IPv4-mapped IPv6 address).
    public static func isLoopback(_ host: String) -> Bool {
        let plain = unmapped(host)
        return plain.hasPrefix("127.") || plain == "::1"
    }

    /// `::ffff:1.2.3.4` as `1.2.3.4`; any other text as it is.
    public static func unmapped(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasPrefix("::ffff:") && lower.contains(".") ? String(lower.dropFirst(7)) : lower
    }

    /// Whether only this machine can reach it.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// `HOST:PORT`, IPv6 in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
