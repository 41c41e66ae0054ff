/// Where the browser monitor listens: an IP literal and a port, as written after `--web` or in the rig's
/// `web: {listen: …}` (`127.0.0.1:8360`, `[::1]:8360`, `0.0.0.0:8360`, `localhost:8360`). Port 0 lets the system
/// choose. A loopback address is reachable from this machine only; any other address needs the session token.
public struct MonitorListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The IP literal without brackets (`127.0.0.1`, `::1`, `0.0.0.0`).
    public var host: String
    public var port: Int

    /// Loopback port 8360: the lowest of `rigPorts`, and the host every rig's own port is on (`rigAddress`).
    public static let standard = MonitorListenAddress(host: "127.0.0.1", port: 8360)
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; `nil` when it is not an IPv4 literal, a bracketed IPv6 literal or `localhost`, followed
    /// by a port from 0 to 65535.
    public init?(_ text: String) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
            guard hostPart.contains(":"), hostPart.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if hostPart != "localhost" {
                let parts = hostPart.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit)
                                                            && Int($0)! <= 255 }) else { return nil }
            }
        }
        guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(\.isASCIIDigit),
              let port = Int(portPart), port <= 65535 else { return nil }
        self.host = hostPart == "localhost" ? "127.0.0.1" : String(hostPart)
        self.port = port
    }

    /// Whether only this machine can connect (127.0.0.0/8 or ::1).
    public var isLoopback: Bool { host.hasPrefix("127.") || host == "::1" }

    /// Whether the host is IPv6.
    public var isIPv6: Bool { host.contains(":") }

    /// The host as it goes into a URL (`[::1]` for IPv6).
    public var urlHost: String { isIPv6 ? "[\(host)]" : host }

    /// `HOST:PORT` as it is written.
    public var description: String { "\(urlHost):\(port)" }

    /// What `--web` and `web.listen` accept, for error messages.
    public static let syntax = "an IP address and a port, such as 127.0.0.1:8360, [::1]:8360 or 0.0.0.0:8360"
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
