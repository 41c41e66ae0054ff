#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// The `pausecam ctl` end of the control socket: a blocking connection that sends one request line and reads reply
/// lines, each read bounded by a timeout so a wedged server cannot hang a key binding forever.
public final class ControlClient {
    private let descriptor: Int32
    /// The socket's path.
    public let path: String
    private var buffered: [UInt8] = []

    /// Connects to the socket at `path`.
    public init(path: String) throws(SocketError) {
        let descriptor = try SocketCalls.streamSocket(path: path)
        do throws(SocketError) {
            try SocketCalls.connect(descriptor, path: path)
        } catch {
            SocketCalls.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { SocketCalls.close(descriptor) }

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
            case .end: throw .call("send", path: path, code: EPIPE)
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
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            SocketCalls.poll(&descriptors, timeout: timeoutMilliseconds)
            guard descriptors[0].revents != 0 else {
                if timeoutMilliseconds < 0 { continue }
                return nil
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let transfer = chunk.withUnsafeMutableBytes { SocketCalls.read(descriptor, into: $0.baseAddress!, count: $0.count) }
            switch transfer {
            case .bytes(let count): buffered += chunk[..<count]
            case .wouldBlock: continue
            case .end: return nil
            }
        }
    }
}
