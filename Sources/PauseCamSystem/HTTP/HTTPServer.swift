#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD
import Foundation
import PauseCamCore

/// An HTTP/1.1 server on libmicrohttpd: its internal thread accepts connections and each connection gets a thread
/// of its own, so a streaming response may wait for its next piece, and a client that stops reading holds up only
/// its own thread. libmicrohttpd parses HTTP; this type turns its callbacks into one Swift closure,
/// `HTTPRequest -> HTTPResponse`, called on the connection's thread.
///
/// Owns the daemon (stopped by `stop()`, or when the server is released), one retained context per request
/// (released in the completed-request callback) and one retained stream per streaming response (released in the
/// response's free callback).
///
/// Limits: a body over `limits.maximumBodyBytes` gets 413 without reaching the handler; at most
/// `limits.maximumConnections` connections are served at once, and at most `limits.maximumConnectionsPerAddress` from
/// one client address (libmicrohttpd closes more at once); a connection silent for `limits.idleTimeoutSeconds` is
/// closed, except a streaming or file body, which gets `limits.responseIdleTimeoutSeconds` (a watched stream sends
/// something every few seconds and is never cut; a viewer that takes nothing for that long is); a request line or
/// headers over `limits.connectionMemoryBytes` are refused.
///
/// Slow headers (slowloris): a client that trickles its request a byte at a time is never silent, so the idle
/// timeout alone would let it keep its place for ever. `HTTPConnectionAdmission` therefore cuts a connection that
/// has not completed its headers within `limits.headerDeadlineSeconds`, keeps at most
/// `limits.waitingConnectionsPerAddress` such connections per address (the newest pushes out the oldest, so a real
/// request from the same address still gets in) and at most `limits.waitingConnections` in all (the address holding
/// the most loses its oldest). A connection is cut by shutting down its socket; libmicrohttpd then sees the end of
/// input and closes it as if the client had left. A request that completes its headers is judged at once, and a
/// handler that refuses it can say `Connection: close`, so a client that may not use the server holds no place.
public final class HTTPServer: Sendable {
    /// The limits on what one client may take.
    public struct Limits: Sendable {
        public var maximumBodyBytes = 64 * 1024
        public var maximumConnections = 64
        /// Connections from one client address (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`): room for every viewer's stream
        /// (the monitor allows 16) plus a page's other requests, and well under `maximumConnections`, so others
        /// still get in while one host holds all of its own.
        public var maximumConnectionsPerAddress = 24
        /// How long a connection may stay silent while its request comes in or while it idles between requests
        /// (`MHD_OPTION_CONNECTION_TIMEOUT`): short, since a place held by a silent client is a place nobody gets.
        public var idleTimeoutSeconds = 10
        /// The same for a connection sending a streaming or file body: a stream sends something every few seconds
        /// while watched, and a player that has buffered enough of a movie stops reading for a while.
        public var responseIdleTimeoutSeconds = 60
        /// Memory for one connection's request line, headers and buffers (libmicrohttpd's
        /// `MHD_OPTION_CONNECTION_MEMORY_LIMIT`, set explicitly to its documented 32 KiB default): a longer request
        /// line gets 414 and longer headers 431, and the connection is closed.
        public var connectionMemoryBytes = 32 * 1024
        /// How long a connection may take to complete a request's headers, from its opening or from the end of its
        /// previous request, however steadily it sends: a few seconds, since a real client sends them at once.
        public var headerDeadlineSeconds = 5
        /// Connections from one address that wait for their headers at once; well under
        /// `maximumConnectionsPerAddress`, so that address's own complete requests find room.
        public var waitingConnectionsPerAddress = 8
        /// Connections from all addresses that wait for their headers at once: half of `maximumConnections`, so
        /// the other half stays for requests that can be judged (with the token).
        public var waitingConnections = 32
        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The port the server listens on (the system's choice when started on port 0).
    public let port: Int
    private let context: ServerContext
    /// The daemon until `stop()`, kept by its address (a C handle, only ever passed back to libmicrohttpd).
    private let daemon: Guarded<UInt?>

    private init(daemon: OpaquePointer, port: Int, context: ServerContext) {
        self.port = port
        self.context = context
        self.daemon = Guarded(UInt(bitPattern: Int(bitPattern: daemon)))
        context.startCuttingLateConnections()
    }

    deinit { stop() }

    /// Starts listening on `host` (an IPv4 or IPv6 literal) and `port` (0: any free port).
    public static func start(host: String, port: Int, limits: Limits = Limits(),
                             handler: @escaping Handler) throws(HTTPServerError) -> HTTPServer {
        let context = ServerContext(limits: limits, handler: handler)
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_AUTO.rawValue
        let display = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        // The daemon for one socket address, whichever family it is.
        func startDaemon<Address>(_ address: inout Address) -> OpaquePointer? {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    pausecam_mhd_start(flags, $0, accessHandler, contextPointer, requestCompleted, contextPointer,
                                       connectionNotifier, contextPointer,
                                       UInt32(limits.maximumConnections), UInt32(limits.maximumConnectionsPerAddress),
                                       UInt32(limits.idleTimeoutSeconds), limits.connectionMemoryBytes)
                }
            }
        }
        let started: OpaquePointer?
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { throw .badAddress(display) }
            started = startDaemon(&address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .badAddress(display) }
            started = startDaemon(&address)
        }
        let failure = errno
        guard let daemon = started else {
            throw .cannotListen(address: display, failure: Errno(rawValue: failure == 0 ? EADDRINUSE : failure))
        }
        return HTTPServer(daemon: daemon, port: Int(pausecam_mhd_bound_port(daemon)), context: context)
    }

    /// Stops listening and waits for every connection's thread to end (streams must end within their read
    /// timeout); idempotent.
    public func stop() {
        let address: UInt? = daemon.withLock { address in
            defer { address = nil }
            return address
        }
        context.stopCuttingLateConnections()
        if let address, let daemon = OpaquePointer(bitPattern: address) { MHD_stop_daemon(daemon) }
    }
}

/// What the C callbacks reach through their `cls` pointer; kept alive by the `HTTPServer`, which outlives the
/// daemon: the limits, the handler, and the connections `HTTPConnectionAdmission` watches.
private final class ServerContext: Sendable {
    let limits: HTTPServer.Limits
    let handler: HTTPServer.Handler
    /// The open connections by libmicrohttpd's connection pointer: the admission's account, and each one's socket
    /// (valid from the opening notification to the closing one, which libmicrohttpd sends before closing it).
    private struct Connections {
        var admission: HTTPConnectionAdmission<UInt>
        var sockets: [UInt: Int32] = [:]
        /// The server stopped: no more sweeps for late connections.
        var stopped = false
    }

    private let connections: Guarded<Connections>

    init(limits: HTTPServer.Limits, handler: @escaping HTTPServer.Handler) {
        self.limits = limits
        self.handler = handler
        let seconds = UInt64(max(1, limits.headerDeadlineSeconds))
        connections = Guarded(Connections(admission: HTTPConnectionAdmission(limits: .init(
            headerDeadline: seconds * 1_000_000_000, waitingPerAddress: limits.waitingConnectionsPerAddress,
            waitingInAll: limits.waitingConnections))))
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

    /// A connection opened: it waits for its headers, and may push out older waiting ones.
    func opened(_ connection: OpaquePointer) {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let address = pausecam_mhd_client_address(connection, &text, socklen_t(text.count)) == 0
            ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
        let socket = pausecam_mhd_connection_socket(connection)
        let id = Self.key(connection)
        connections.withLock { connections in
            if socket >= 0 { connections.sockets[id] = socket }
            let cut = connections.admission.opened(id, address: address, at: Self.now())
            // Under the lock: a socket in `sockets` is still open (the closing notification waits for the lock).
            for victim in cut { connections.sockets[victim].map(Self.cut) }
        }
    }

    /// A connection closed: its socket is about to be closed, so it is forgotten first.
    func closed(_ connection: OpaquePointer) {
        let id = Self.key(connection)
        connections.withLock { connections in
            connections.sockets[id] = nil
            connections.admission.closed(id)
        }
    }

    /// The headers of a request on `connection` are complete.
    func headersArrived(_ connection: OpaquePointer) {
        connections.withLock { $0.admission.headersArrived(Self.key(connection)) }
    }

    /// A request on `connection` ended; the connection waits for the next one's headers.
    func requestEnded(_ connection: OpaquePointer) {
        connections.withLock { $0.admission.requestEnded(Self.key(connection), at: Self.now()) }
    }

    /// Cuts every connection past its header deadline twice a second (so a late one goes at most half a second
    /// after its deadline) until `stopCuttingLateConnections()`.
    func startCuttingLateConnections() {
        Self.sweeper.asyncAfter(deadline: .now() + .milliseconds(500)) { [weak self] in
            guard let self else { return }
            let stopped = connections.withLock { connections in
                for victim in connections.admission.expired(at: Self.now()) { connections.sockets[victim].map(Self.cut) }
                return connections.stopped
            }
            if !stopped { startCuttingLateConnections() }
        }
    }

    func stopCuttingLateConnections() {
        connections.withLock { $0.stopped = true }
    }

    private static let sweeper = DispatchQueue(label: "pausecam.http.header-deadline")

    /// Ends both directions of a connection's socket without closing it (libmicrohttpd owns the descriptor and
    /// closes it once it sees the end). The corresponding C function is `shutdown`.
    private static func cut(_ socket: Int32) {
        _ = pausecam_shutdown_both(socket)
    }
}

/// One request while its body arrives; owned through `*con_cls` from the first call until the completed callback.
private final class RequestContext {
    var body: [UInt8] = []
    var tooLarge = false
}

/// The access handler: called first with no body (to set up the request's context), then once per piece of body,
/// then once more with no body, when the response is queued.
private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize,
                                                         requestPointer in
    guard let cls, let connection, let uploadSize, let requestPointer else { return .NO }
    let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let existing = requestPointer.pointee else {
        server.headersArrived(connection)
        let request = RequestContext()
        requestPointer.pointee = Unmanaged.passRetained(request).toOpaque()
        if let length = lookup(connection, .HEADER_KIND, "Content-Length").flatMap({ Int($0) }),
           length > server.limits.maximumBodyBytes {
            request.tooLarge = true
            return queue(.text(413, "the request body is over \(server.limits.maximumBodyBytes) bytes\n"),
                         on: connection, limits: server.limits)
        }
        return .YES
    }
    let request = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if let uploadData, !request.tooLarge {
            if request.body.count + uploadSize.pointee > server.limits.maximumBodyBytes {
                request.tooLarge = true
                request.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if request.tooLarge {
        return queue(.text(413, "the request body is over \(server.limits.maximumBodyBytes) bytes\n"), on: connection,
                     limits: server.limits)
    }
    let fullURL = url.map { String(cString: $0) } ?? "/"
    let path = String(fullURL.prefix { $0 != "?" })
    let incoming = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: path,
                               headers: values(connection, .HEADER_KIND, lowercased: true),
                               query: values(connection, .GET_ARGUMENT_KIND, lowercased: false),
                               body: request.body)
    return queue(server.handler(incoming), on: connection, limits: server.limits)
}

/// Releases the request's context; the connection waits for its next request.
private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, requestPointer, _ in
    if let cls, let connection { Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().requestEnded(connection) }
    guard let requestPointer, let existing = requestPointer.pointee else { return }
    Unmanaged<RequestContext>.fromOpaque(existing).release()
    requestPointer.pointee = nil
}

/// Tells the admission when a connection opens and closes.
private let connectionNotifier: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED: server.opened(connection)
    case .CONNECTION_NOTIFY_CLOSED: server.closed(connection)
    @unknown default: break
    }
}

private func lookup(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
}

/// Every value of `kind` (headers, query arguments); the first of a repeated name wins.
private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
    final class Collected { var values: [String: String] = [:]; var lowercased = false }
    let collected = Collected()
    collected.lowercased = lowercased
    let pointer = Unmanaged.passUnretained(collected).toOpaque()
    _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
        guard let cls, let key else { return .YES }
        let collected = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
        var name = String(cString: key)
        if collected.lowercased { name = name.lowercased() }
        if collected.values[name] == nil { collected.values[name] = value.map { String(cString: $0) } ?? "" }
        return .YES
    }, pointer)
    return withExtendedLifetime(collected) { collected.values }
}

/// Builds libmicrohttpd's response for `response` and queues it; the response object is released at once (the
/// connection keeps its own reference). A streaming or file body gives its connection the longer
/// `limits.responseIdleTimeoutSeconds`.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer, limits: HTTPServer.Limits) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        made = bytes.withUnsafeBytes {
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        let box = Unmanaged.passRetained(StreamBox(stream)).toOpaque()
        made = MHD_create_response_from_callback(pausecam_mhd_size_unknown(), 32 * 1024, streamReader, box, streamFreed)
        if made == nil { Unmanaged<StreamBox>.fromOpaque(box).release(); stream.close() }
    case .file(let file, let offset, let length):
        // From here the response owns the descriptor: libmicrohttpd closes it when the response is destroyed.
        guard let descriptor = file.take() else { return .NO }
        made = MHD_create_response_from_fd_at_offset64(length, descriptor, offset)
        if made == nil { close(descriptor) }
    }
    guard let made else { return .NO }
    switch response.body {
    case .bytes: break
    case .stream, .file:
        _ = pausecam_mhd_set_connection_timeout(connection, UInt32(limits.responseIdleTimeoutSeconds))
    }
    for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
    let result = MHD_queue_response(connection, UInt32(response.status), made)
    MHD_destroy_response(made)
    return result
}

/// Holds a stream for libmicrohttpd's `cls`: retained until the free callback.
private final class StreamBox {
    let stream: any HTTPBodyStream
    init(_ stream: any HTTPBodyStream) { self.stream = stream }
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return pausecam_mhd_end_with_error() }
    let stream = Unmanaged<StreamBox>.fromOpaque(cls).takeUnretainedValue().stream
    while true {
        guard let count = stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) else {
            return pausecam_mhd_end_of_stream()
        }
        // Zero bytes would make libmicrohttpd call again at once; the stream has waited already, so ask again here.
        if count > 0 { return count }
    }
}

private let streamFreed: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeRetainedValue()
    box.stream.close()
}
