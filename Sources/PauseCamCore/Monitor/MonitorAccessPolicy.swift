import Foundation

/// Who may use the browser monitor, decided from a request's headers before anything of the rig is read:
///
/// - Listening on loopback, only pages this machine loaded from us are served: the `Host` must be `localhost`,
///   `127.0.0.1`, `[::1]` or the loopback address we listen on (`127.0.0.2`), with our port, else 421 (a
///   DNS-rebinding page names its own host).
/// - Listening beyond loopback, every request shows the session token: `?token=` in the URL (the first such request
///   sets an HttpOnly, SameSite=Strict cookie named after the port, `pausecam_token_PORT`, so the page's own
///   requests carry it and two monitors on one host keep one cookie each — a browser sends a host's cookies to
///   every port of it), the cookie, or
///   `Authorization: Bearer`; else 401 and no rig information.
/// - A request that changes something (a `POST`; no other method changes anything) must come from our own page: an `Origin` of `http://` plus the
///   `Host` it was sent to, or `Sec-Fetch-Site: same-origin`; else 403 (cross-site request forgery).
public struct MonitorAccessPolicy: Sendable {
    /// The start of the name of the cookie that carries the token; the port follows (`cookieName`).
    public static let cookiePrefix = "pausecam_token_"

    /// The headers and the query value the decision reads (`nil` when absent).
    public struct Request: Sendable {
        public var method: String
        public var host: String?
        public var origin: String?
        public var secFetchSite: String?
        public var cookie: String?
        public var authorization: String?
        public var queryToken: String?

        public init(method: String, host: String? = nil, origin: String? = nil, secFetchSite: String? = nil,
                    cookie: String? = nil, authorization: String? = nil, queryToken: String? = nil) {
            self.method = method
            self.host = host
            self.origin = origin
            self.secFetchSite = secFetchSite
            self.cookie = cookie
            self.authorization = authorization
            self.queryToken = queryToken
        }
    }

    /// What to do with a request.
    public enum Verdict: Sendable, Equatable {
        /// Serve it; `setCookie` when the token came in the URL and the reply should set the cookie.
        case allow(setCookie: Bool)
        /// Refuse it with this HTTP status and a short reason (which names nothing of the rig).
        case refuse(status: Int, reason: String)
    }

    /// Whether the server listens on loopback only.
    public let loopback: Bool
    /// The port the server is bound to (what `Host` must name on loopback).
    public let port: Int
    /// The session token, required beyond loopback.
    public let token: MonitorSessionToken?
    /// The address listened on as it goes into a URL (`127.0.0.2`, `[::1]`); on loopback also a name `Host` may give.
    public let listenHost: String?

    public init(loopback: Bool, port: Int, token: MonitorSessionToken?, listenHost: String? = nil) {
        self.loopback = loopback
        self.port = port
        self.token = token
        self.listenHost = listenHost
    }

    /// The name of this monitor's token cookie: one per port.
    public var cookieName: String { Self.cookiePrefix + String(port) }

    /// The verdict on `request`.
    public func verdict(_ request: Request) -> Verdict {
        var setCookie = false
        if let token {
            if let given = request.queryToken, token.matches(given) {
                setCookie = true
            } else if let bearer = Self.bearer(request.authorization), token.matches(bearer) {
            } else if let cookie = cookieValue(request.cookie), token.matches(cookie) {
            } else {
                return .refuse(status: 401, reason: "this monitor needs its token: open the URL PauseCam printed")
            }
        }
        if loopback {
            guard let host = request.host, isOurLoopbackHost(host) else {
                return .refuse(status: 421, reason: "this monitor answers only to localhost:\(port) or 127.0.0.1:\(port)")
            }
        }
        if request.method == "POST" {
            let sameSite = request.secFetchSite?.lowercased() == "same-origin"
            let sameOrigin = request.host.map { request.origin == "http://" + $0 } ?? false
            guard sameSite || sameOrigin else {
                return .refuse(status: 403, reason: "commands are taken only from the monitor's own page (Origin)")
            }
        }
        return .allow(setCookie: setCookie)
    }

    /// The `Set-Cookie` value that stores the token in the browser.
    public func cookieHeader() -> String? {
        token.map { "\(cookieName)=\($0.text); HttpOnly; SameSite=Strict; Path=/" }
    }

    private func isOurLoopbackHost(_ host: String) -> Bool {
        (["localhost", "127.0.0.1", "[::1]"] + (listenHost.map { [$0] } ?? [])).contains {
            host.lowercased() == "\($0.lowercased()):\(port)"
        }
    }

    private static func bearer(_ header: String?) -> String? {
        guard let header, header.lowercased().hasPrefix("bearer ") else { return nil }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    private func cookieValue(_ header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(cookieName + "=") { return String(pair.dropFirst(cookieName.count + 1)) }
        }
        return nil
    }
}
