#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// The `pausecam ctl` end of the control socket: a blocking connection that sends one request line and reads reply
/// lines, each read bounded by a timeout so a wedged server cannot hang a key binding forever.
public final class ControlClient {
    /// The connection, owned by the client: closed when the client goes.
    private let descriptor: FileDescriptor
    /// The socket's path.
    public let path: String
    private var buffered: [UInt8] = []

    /// Connects to the socket at `path`.
    public init(path: String) throws(SocketError) {
        let descriptor = try SocketCalls.streamSocket(path: path)
        try SocketCalls.connect(descriptor, path: path)
        self.descriptor = descriptor
        self.path = path
    }

    /// Whether a process accepts connections at `path` now (the connection is closed at once).
    public static func isAnswering(path: String) -> Bool {
        (try? ControlClient(path: path)) != nil
    }

    /// Sends one request line (a newline is added).
    public func send(_ line: String) throws(SocketError) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let transfer = bytes[offset...].withUnsafeBytes { SocketCalls.send(descriptor, $0) }
            switch transfer {
            case .bytes(let count): offset += count
            case .wouldBlock: continue
            case .end: throw .call("send", path: path, failure: .brokenPipe)
            }
        }
    }

    /// The next line from the server without its newline; `nil` when the server closed the connection or nothing
    /// came within `timeoutMilliseconds` (-1: wait as long as it takes, for `watch`).
    public func readLine(timeoutMilliseconds: Int32) -> String? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let ready = (try? descriptor.poll(timeout: timeoutMilliseconds)) ?? 0
            guard ready != 0 else {
                if timeoutMilliseconds < 0 { continue }
                return nil
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let transfer = chunk.withUnsafeMutableBytes { SocketCalls.read(descriptor, into: $0) }
            switch transfer {
            case .bytes(let count): buffered += chunk[..<count]
            case .wouldBlock: continue
            case .end: return nil
            }
        }
    }
}
