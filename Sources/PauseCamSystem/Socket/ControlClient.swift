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

    /// Connects to the socket at `path`. With `timeoutMilliseconds`, connecting and sending wait at most that
    /// long: a stopped server (SIGSTOP) whose queue of waiting clients is full would otherwise keep `connect`
    /// waiting forever; the failure is then `connect` with `Errno.wouldBlock` (see `isTimeout`).
    public init(path: String, timeoutMilliseconds: Int32? = nil) throws(SocketError) {
        let descriptor = try SocketCalls.streamSocket(path: path)
        if let timeoutMilliseconds {
            try SocketCalls.setSendTimeout(descriptor, milliseconds: max(1, timeoutMilliseconds), path: path)
        }
        try SocketCalls.connect(descriptor, path: path)
        self.descriptor = descriptor
        self.path = path
    }

    /// Whether `error` is the time limit of `init(path:timeoutMilliseconds:)` or `send` running out.
    public static func isTimeout(_ error: SocketError) -> Bool {
        if case .call(_, _, let failure) = error { return failure == .wouldBlock }
        return false
    }

    /// Whether a process listens at `path` now (the connection is closed at once). A listener that takes no
    /// clients within `timeoutMilliseconds` (stopped, its queue full) still counts: it is there, only not answering.
    public static func isAnswering(path: String, timeoutMilliseconds: Int32 = 1000) -> Bool {
        do {
            _ = try ControlClient(path: path, timeoutMilliseconds: timeoutMilliseconds)
            return true
        } catch {
            return isTimeout(error)
        }
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
