import Foundation
import PauseCamCore

/// The browser monitor of a running rig: the page (`MonitorPage`), the status, the engine's events as
/// Server-Sent Events, commands by `POST /command`, and the program and lens pictures from `MonitorPictures`
/// (when there are any: without them the picture routes answer 503 and the page says "no picture yet"), and the
/// last saved clip's thumbnail and movie (the movie by byte ranges; only those two paths are ever sent), served on
/// while the next clip records.
///
/// Every request first passes `MonitorAccessPolicy` (Host on loopback, the token beyond it, Origin for commands),
/// then `MonitorRoute`. At most `maximumViewers` streams (program pictures and event streams) are open at once;
/// one more gets 503. The token is never written anywhere but the URL returned by `tokenURL`.
public final class MonitorWebServer: Sendable {
    /// Streams served at once.
    public static let maximumViewers = 16

    /// What the server reads from and sends to the rig; closures so the composition root wires them to the
    /// control dispatcher and tests to fakes.
    public struct Rig: Sendable {
        /// The rig: its name, lenses, zoom presets and digital zoom limit describe the page's controls.
        public var rig: PauseCamCore.Rig
        /// The status as `ControlStatusJSON.line` writes it.
        public var status: @Sendable () -> String
        /// Carries out one command line of the shell's grammar.
        public var command: @Sendable (String) -> ControlReply
        /// The pictures, when something makes them.
        public var pictures: (any MonitorPictures)?
        /// The files of the clip saved last (`ClipOutcome.savedClip`); `nil` before the first save. These two
        /// paths are the only files the server ever sends.
        public var lastClip: @Sendable () -> LastClip?

        public init(rig: PauseCamCore.Rig, status: @escaping @Sendable () -> String,
                    command: @escaping @Sendable (String) -> ControlReply, pictures: (any MonitorPictures)?,
                    lastClip: @escaping @Sendable () -> LastClip? = { nil }) {
            self.rig = rig
            self.status = status
            self.command = command
            self.pictures = pictures
            self.lastClip = lastClip
        }
    }

    /// Where the last saved clip's movie and thumbnail are.
    public struct LastClip: Sendable, Equatable {
        public var moviePath: String
        /// `nil` when the clip has no thumbnail (no picture was recorded, or writing it failed).
        public var thumbnailPath: String?

        public init(moviePath: String, thumbnailPath: String?) {
            self.moviePath = moviePath
            self.thumbnailPath = thumbnailPath
        }
    }

    /// Where it listens.
    public let address: MonitorListenAddress
    /// The session token, when the address is not loopback.
    public let token: MonitorSessionToken?
    private let connection: Rig
    private let viewers = MonitorViewerCount(limit: MonitorWebServer.maximumViewers)
    /// The clips the rig reported saved, newest last, at most `recentClipCount`, each with its number in the
    /// session's saves (see `lastClip()`).
    private let saved = Guarded<[(number: Int, clip: LastClip)]>([])
    /// How many saved clips the page lists to play.
    public static let recentClipCount = 5
    /// What changes while it serves: the open event streams, whether it is stopping, and the HTTP server.
    private struct Serving {
        var eventStreams: [ObjectIdentifier: EventStream] = [:]
        var stopping = false
        var server: HTTPServer?
    }

    private let serving = Guarded(Serving())

    private init(address: MonitorListenAddress, token: MonitorSessionToken?, connection: Rig) {
        self.address = address
        self.token = token
        self.connection = connection
    }

    /// Serves `rig` on `address` (port 0: any free port). Beyond loopback a new token is drawn from the system's
    /// random source unless `token` is given; a given token is required on loopback too.
    public static func start(_ rig: Rig, on address: MonitorListenAddress, token given: MonitorSessionToken? = nil,
                             limits: HTTPServer.Limits = HTTPServer.Limits()) throws(HTTPServerError) -> MonitorWebServer {
        var random = SystemRandomNumberGenerator()
        let token = given ?? (address.isLoopback ? nil : MonitorSessionToken(using: &random))
        let box = WeakServer()
        let http = try HTTPServer.start(host: address.host, port: address.port, limits: limits) { request in
            box.server?.respond(to: request) ?? .text(503, "stopping\n")
        }
        let bound = MonitorListenAddress(host: address.host, port: http.port)
        let server = MonitorWebServer(address: bound, token: token, connection: rig)
        box.set(server)
        server.serving.withLock { $0.server = http }
        return server
    }

    /// The page's address without the token (what the status shows).
    public var url: String { "http://\(Self.displayHost(address)):\(address.port)/" }

    /// The address to open: with `?token=` beyond loopback. Shown once, to the user who started PauseCam.
    public var tokenURL: String { token.map { url + "?token=\($0.text)" } ?? url }

    /// The clip saved last: the rig's, or while the rig has none (a new clip records) the one it had before.
    private func lastClip() -> LastClip? {
        let current = connection.lastClip()
        return saved.withLock { remembered in
            if let current, remembered.last?.clip != current {
                remembered.append(((remembered.last?.number ?? 0) + 1, current))
                if remembered.count > Self.recentClipCount { remembered.removeFirst(remembered.count - Self.recentClipCount) }
            }
            return remembered.last?.clip
        }
    }

    /// The recent clips, newest first, after taking in the one saved last.
    private func recentClips() -> [(number: Int, clip: LastClip)] {
        _ = lastClip()
        return saved.withLock { $0.reversed() }
    }

    /// `/clips.json`: `[{"number": N, "name": "file.mov", "thumbnail": true}, …]`, newest first.
    private func recentClipsJSON() -> String {
        let list = recentClips().map { entry -> [String: Any] in
            ["number": entry.number, "name": PathText.lastComponent(of: entry.clip.moviePath),
             "thumbnail": entry.clip.thumbnailPath != nil]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: list, options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("a list of strings, numbers and booleans is always JSON")
        }
        return text
    }

    /// An engine event for every open event stream. A saved clip is also looked up at once (off the caller's
    /// thread, which may be the engine's), so that it stays served when the next clip starts before anyone asked.
    public func publish(_ event: EngineEvent) {
        if case .clipSaved = event {
            DispatchQueue.global().async { [weak self] in _ = self?.lastClip() }
        }
        let streams = serving.withLock { Array($0.eventStreams.values) }
        guard !streams.isEmpty else { return }
        let json = ControlStatusJSON.event(event)
        for stream in streams { stream.send(json) }
    }

    /// Ends every stream and stops listening; idempotent.
    public func stop() {
        let (http, streams): (HTTPServer?, [EventStream]) = serving.withLock { serving in
            serving.stopping = true
            defer { serving.server = nil }
            return (serving.server, Array(serving.eventStreams.values))
        }
        streams.forEach { $0.wake() }
        http?.stop()
    }

    private var isStopping: Bool { serving.withLock { $0.stopping } }

    /// A host for the printed URL: a wildcard address becomes this machine's first non-loopback address.
    static func displayHost(_ address: MonitorListenAddress) -> String {
        if address.host == "0.0.0.0" || address.host == "::" {
            return NetworkInterfaces.firstExternalAddress(ipv6: address.isIPv6).map {
                $0.contains(":") ? "[\($0)]" : $0
            } ?? address.urlHost
        }
        return address.urlHost
    }

    // MARK: Answering

    private func respond(to request: HTTPRequest) -> HTTPResponse {
        let policy = MonitorAccessPolicy(loopback: address.isLoopback, port: address.port, token: token,
                                         listenHost: address.urlHost)
        let facts = MonitorAccessPolicy.Request(method: request.method, host: request.header("Host"),
                                                origin: request.header("Origin"),
                                                secFetchSite: request.header("Sec-Fetch-Site"),
                                                cookie: request.header("Cookie"),
                                                authorization: request.header("Authorization"),
                                                queryToken: request.query["token"])
        var extra: [(name: String, value: String)] = [("Cache-Control", "no-store"),
                                                      ("X-Content-Type-Options", "nosniff")]
        switch policy.verdict(facts) {
        case .refuse(let status, let reason):
            // A client that may not use the monitor keeps no connection open here: its place goes to one that may.
            return .text(status, reason + "\n", headers: extra + [("Connection", "close")])
        case .allow(let setCookie):
            if setCookie, let cookie = policy.cookieHeader() { extra.append(("Set-Cookie", cookie)) }
        }
        switch MonitorRoute.resolve(method: request.method, path: request.path) {
        case .refuse(let status, let reason, let allow):
            return .text(status, reason + "\n", headers: extra + (allow.map { [("Allow", $0)] } ?? []))
        case .route(let route):
            var response = answer(route, request)
            response.headers += extra
            return response
        }
    }

    private func answer(_ route: MonitorRoute, _ request: HTTPRequest) -> HTTPResponse {
        switch route {
        case .page:
            return .text(200, MonitorPage.html, type: "text/html; charset=utf-8",
                         headers: [("Content-Security-Policy", MonitorPage.contentSecurityPolicy)])
        case .script:
            return .text(200, MonitorPage.script, type: "text/javascript; charset=utf-8")
        case .styleSheet:
            return .text(200, MonitorPage.styleSheet, type: "text/css; charset=utf-8")
        case .status:
            return .text(200, connection.status(), type: "application/json")
        case .rigDescription:
            return .text(200, MonitorPage.rigJSON(connection.rig, hasPictures: connection.pictures != nil),
                         type: "application/json")
        case .command:
            guard let line = MonitorRoute.commandLine(fromBody: request.body) else {
                return Self.json(400, ok: false, message: "the body must be one command line without control characters")
            }
            let reply = connection.command(line)
            // A command the rig refuses (unknown, or not possible in this state) is the client's to fix: 409.
            return Self.json(reply.ok ? 200 : 409, ok: reply.ok, message: reply.message)
        case .events:
            return eventStream()
        case .programStream:
            return programStream()
        case .programStill:
            guard let pictures = connection.pictures else { return Self.noPicture }
            pictures.startWatching()
            defer { pictures.stopWatching() }
            guard let picture = pictures.programPicture(after: 0, timeoutSeconds: 2) else { return Self.noPicture }
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(picture.jpeg))
        case .lensStill(let role):
            guard connection.rig.lens(named: role) != nil else {
                return .text(404, "no lens \"\(role)\" in this rig\n")
            }
            guard let picture = connection.pictures?.lensPicture(role) else { return Self.noPicture }
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes(picture.jpeg))
        case .lastThumbnail:
            guard let path = lastClip()?.thumbnailPath else {
                return .text(404, "no clip with a thumbnail saved yet in this session\n")
            }
            return Self.file(path, type: "image/jpeg", range: nil)
        case .lastMovie:
            guard let path = lastClip()?.moviePath else {
                return .text(404, "no clip saved yet in this session\n")
            }
            return Self.file(path, type: Self.movieType(path), range: request.header("Range"))
        case .recentClips:
            return .text(200, recentClipsJSON(), type: "application/json")
        case .recentMovie(let number):
            guard let clip = recentClips().first(where: { $0.number == number })?.clip else {
                return .text(404, "no recent clip \(number) in this session\n")
            }
            return Self.file(clip.moviePath, type: Self.movieType(clip.moviePath), range: request.header("Range"))
        case .recentThumbnail(let number):
            guard let path = recentClips().first(where: { $0.number == number })?.clip.thumbnailPath else {
                return .text(404, "no recent clip \(number) with a thumbnail in this session\n")
            }
            return Self.file(path, type: "image/jpeg", range: nil)
        }
    }

    /// The file at `path` (a path the rig reported, never one from a request), whole or the part `range` asks for.
    private static func file(_ path: String, type: String, range: String?) -> HTTPResponse {
        guard let file = HTTPFileBody.open(path) else {
            return .text(404, "the last clip's file is gone: \((path as NSString).lastPathComponent)\n")
        }
        let headers: [(name: String, value: String)] = [("Content-Type", type), ("Accept-Ranges", "bytes")]
        switch MonitorByteRange.resolve(range, size: file.size) {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: .file(file, offset: 0, length: file.size))
        case .part(let offset, let length):
            return HTTPResponse(status: 206,
                                headers: headers + [("Content-Range", "bytes \(offset)-\(offset + length - 1)/\(file.size)")],
                                body: .file(file, offset: offset, length: length))
        case .unsatisfiable:
            return .text(416, "the range \(range ?? "") is outside the file's \(file.size) bytes\n",
                         headers: [("Content-Range", "bytes */\(file.size)"), ("Accept-Ranges", "bytes")])
        }
    }

    /// The movie's media type by its container.
    private static func movieType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "mp4": return "video/mp4"
        case "mkv": return "video/x-matroska"
        default: return "video/quicktime"
        }
    }

    private func programStream() -> HTTPResponse {
        guard let pictures = connection.pictures else { return Self.noPicture }
        guard viewers.take() else { return Self.tooManyViewers }
        let viewers = self.viewers
        let stream = MJPEGStream(pictures: pictures, isStopping: { [weak self] in self?.isStopping ?? true },
                                 onClose: { viewers.release() })
        return HTTPResponse(status: 200,
                            headers: [("Content-Type", "multipart/x-mixed-replace; boundary=\(MJPEGStream.boundary)")],
                            body: .stream(stream))
    }

    private func eventStream() -> HTTPResponse {
        guard viewers.take() else { return Self.tooManyViewers }
        let viewers = self.viewers
        let pictures = connection.pictures
        pictures?.startWatching()
        let stream = EventStream(isStopping: { [weak self] in self?.isStopping ?? true }, onClose: { [weak self] stream in
            if let self { _ = serving.withLock { $0.eventStreams.removeValue(forKey: ObjectIdentifier(stream)) } }
            pictures?.stopWatching()
            viewers.release()
        })
        serving.withLock { $0.eventStreams[ObjectIdentifier(stream)] = stream }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
    }

    private static let noPicture = HTTPResponse.text(503, "no picture yet\n", headers: [("Retry-After", "1")])
    /// Closes the connection too: a client turned away holds no place the page's other requests need.
    private static let tooManyViewers = HTTPResponse.text(503, "too many viewers (at most \(maximumViewers))\n",
                                                          headers: [("Retry-After", "5"), ("Connection", "close")])

    private static func json(_ status: Int, ok: Bool, message: String) -> HTTPResponse {
        let object: [String: Any] = ["ok": ok, "message": message]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(Array(data)))
    }

    /// Lets the handler reach the server, which is built after the HTTP server reports its port: a weak reference,
    /// set once.
    private final class WeakServer: Sendable {
        private struct Reference { weak var server: MonitorWebServer? }
        private let reference = Guarded(Reference())
        var server: MonitorWebServer? { reference.withLock { $0.server } }
        func set(_ server: MonitorWebServer) { reference.withLock { $0.server = server } }
    }
}
