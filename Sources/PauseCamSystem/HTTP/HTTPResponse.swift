/// What the server sends back: a status, headers, and either bytes or a stream that produces the body while the
/// client stays.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        /// A body known in full; the server copies it.
        case bytes([UInt8])
        /// A body of unknown length produced by `stream` on the connection's own thread; it ends when the stream
        /// says so or the client leaves, and the server then calls `close()` once.
        case stream(any HTTPBodyStream)
        /// Part of an open file, sent by libmicrohttpd straight from the descriptor (no copy into memory); the
        /// server takes the descriptor over and closes it when the response is done.
        case file(HTTPFileBody, offset: UInt64, length: UInt64)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A text body with its content type.
    public static func text(_ status: Int, _ text: String, type: String = "text/plain; charset=utf-8",
                            headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", type)] + headers, body: .bytes(Array(text.utf8)))
    }
}

/// A response body produced piece by piece (an MJPEG stream, Server-Sent Events). Each connection runs on its own
/// thread, so `read` may wait for the next piece; it must return within about a second when nothing comes, so the
/// server can notice a client that left and can stop.
public protocol HTTPBodyStream: AnyObject, Sendable {
    /// Copies up to `buffer.count` bytes of the body into `buffer` and returns how many (0 when nothing is ready
    /// yet: the server calls again), or `nil` at the end of the body.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// The response is done (ended, or the client left); called once.
    func close()
}
