/// A stream destination's address (`live.stream[].url`): `srt://`, `rtmp://` or `rtmps://`, its host and port read
/// out, and a `redacted` form for everything people see. The whole URL may hold a secret (an RTMP stream key in its
/// path, an SRT `streamid` or `passphrase` in its query, a user and password before the host), so only the
/// composition root's stream output ever reads `text`; logs, `status`, events, sidecars and the page show
/// `redacted`.
public struct StreamURL: Sendable, Equatable, CustomStringConvertible {
    /// The protocols a destination may use, each with the container it carries.
    public enum Scheme: String, Sendable, CaseIterable {
        case srt, rtmp, rtmps
        /// The container muxed onto the connection: MPEG-TS over SRT, FLV over RTMP(S).
        public var container: String { self == .srt ? "mpegts" : "flv" }
    }

    /// The URL as written: what libavformat opens. A secret; never print it.
    public let text: String
    public let scheme: Scheme
    /// The host name or address (an IPv6 address without its brackets).
    public let host: String
    public let port: Int?

    /// Reads `text`; `nil` with the reason for people when it is not a usable destination.
    public static func parse(_ text: String) -> Result<StreamURL, RigValueParser.Problem> {
        let schemes = Scheme.allCases.map { "\($0.rawValue)://" }.joined(separator: ", ")
        guard let separator = text.range(of: "://"),
              let scheme = Scheme(rawValue: text[..<separator.lowerBound].lowercased()) else {
            return .failure("a stream URL starts with one of \(schemes)")
        }
        let rest = text[separator.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" }
        // A user and password before the host are as secret as a key: dropped here, kept in `text`.
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                return .failure("the stream URL's IPv6 address has no closing ]")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                return .failure("the stream URL has text after its IPv6 address")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "\t" }) else {
            return .failure("the stream URL names no host; write \(scheme.rawValue)://HOST…")
        }
        var port: Int?
        if let portText {
            guard let p = Int(portText), (1...65_535).contains(p) else {
                return .failure("the stream URL's port must be a number from 1 to 65535")
            }
            port = p
        }
        if scheme == .srt, port == nil {
            return .failure("an SRT URL needs a port: srt://\(host):PORT")
        }
        return .success(StreamURL(text: text, scheme: scheme, host: String(host), port: port))
    }

    private init(text: String, scheme: Scheme, host: String, port: Int?) {
        self.text = text
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `scheme://host[:port]/…`: what people may see. The `/…` stands for whatever followed the host (a path, a
    /// key, a query), shown or not, so a key's absence cannot be told from its presence either.
    public var redacted: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme.rawValue)://\(shownHost)\(port.map { ":\($0)" } ?? "")/…"
    }

    /// Whether the URL may hold a secret: anything after the host (a path, a key, a query) or a user before it.
    public var mayHoldSecret: Bool {
        guard let separator = text.range(of: "://") else { return false }
        let rest = text[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let after = rest.dropFirst(authority.count)
        return authority.contains("@") || !(after.isEmpty || after == "/")
    }

    /// Never the URL itself: interpolating a `StreamURL` into a message shows `redacted`.
    public var description: String { redacted }
}
