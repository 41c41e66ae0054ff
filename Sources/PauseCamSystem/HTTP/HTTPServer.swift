#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD
import Foundation

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
/// one client address (libmicrohttpd closes more at once), so a host that opens connections and trickles their
/// headers (slowloris) uses up its own places, never everyone's; a connection silent for `limits.idleTimeoutSeconds`
/// is closed, except a streaming or file body, which gets `limits.responseIdleTimeoutSeconds` (a watched stream
/// sends something every few seconds and is never cut; a viewer that takes nothing for that long is); a request line
/// or headers over `limits.connectionMemoryBytes` are refused. A client that trickles its request (a byte a second)
/// holds only its own connection and thread: the others are served meanwhile.
/// Unchecked Sendable: the daemon pointer is under `lock`; libmicrohttpd serialises its own callbacks per connection.
public final class HTTPServer: @unchecked Sendable {
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
        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The port the server listens on (the system's choice when started on port 0).
    public let port: Int
    private let context: ServerContext
    private let lock = NSLock()
    private var daemon: OpaquePointer?

    private init(daemon: OpaquePointer, port: Int, context: ServerContext) {
        self.daemon = daemon
        self.port = port
        self.context = context
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
        let daemon: OpaquePointer? = lock.withLock {
            defer { self.daemon = nil }
            return self.daemon
        }
        if let daemon { MHD_stop_daemon(daemon) }
    }
}

/// What the C callbacks reach through their `cls` pointer; kept alive by the `HTTPServer`, which outlives the
/// daemon.
/// Unchecked Sendable: immutable after init (limits and a handler closure that is itself thread-safe).
private final class ServerContext: @unchecked Sendable {
    let limits: HTTPServer.Limits
    let handler: HTTPServer.Handler
    init(limits: HTTPServer.Limits, handler: @escaping HTTPServer.Handler) {
        self.limits = limits
        self.handler = handler
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

/// Releases the request's context.
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestPointer, _ in
    guard let requestPointer, let existing = requestPointer.pointee else { return }
    Unmanaged<RequestContext>.fromOpaque(existing).release()
    requestPointer.pointee = nil
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
