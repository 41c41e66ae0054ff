/// One HTTP request as libmicrohttpd parsed it: the method, the path (percent-decoded, without the query), the
/// headers (names lowercased), the query arguments and the body (at most the server's body limit).
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    /// Header values by lowercased name; a repeated header keeps its first value.
    public var headers: [String: String]
    public var query: [String: String]
    public var body: [UInt8]

    public init(method: String, path: String, headers: [String: String] = [:], query: [String: String] = [:],
                body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.query = query
        self.body = body
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
