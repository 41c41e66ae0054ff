import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare Unix-socket client for the tests that must misbehave on purpose (say nothing, send a megabyte, send
/// binary junk), which `pausecam ctl` never does. Every read is bounded by a deadline.
final class RawSocketClient: @unchecked Sendable {  // one thread sends while another reads; they share only the descriptor
    let descriptor: Int32
    private var buffered: [UInt8] = []

    init?(path: String) {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { close(descriptor); return nil }
        self.descriptor = descriptor
    }

    /// A TCP client of `127.0.0.1:port` (the browser monitor), from the loopback address `source` (any of
    /// 127.0.0.0/8: to the server a different client host).
    init?(loopbackPort port: Int, from source: String = "127.0.0.1") {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else { close(descriptor); return nil }
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { close(descriptor); return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { close(descriptor); return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends all of `bytes` (blocking); false when the server closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 { if errno == EINTR { continue }; return false }
            offset += sent
        }
        return true
    }

    func send(line: String) { send(Array((line + "\n").utf8)) }

    /// The next line, or nil at the end of the connection or after `seconds`.
    func readLine(seconds: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let newline = buffered.firstIndex(of: 10) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            guard let chunk = readChunk(until: deadline), !chunk.isEmpty else { return nil }
            buffered += chunk
        }
    }

    /// True when the server closed the connection (end of input) before `seconds` passed; any bytes before the
    /// end are dropped.
    func isClosedByServer(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while let chunk = readChunk(until: deadline) {
            if chunk.isEmpty { return true }
        }
        return false
    }

    /// Bytes that arrived before `deadline`: empty at the end of the connection, nil when the deadline passed.
    private func readChunk(until deadline: Date) -> [UInt8]? {
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 1, Int32(min(left, 1) * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; return [] }
            return Array(chunk[..<count])
        }
    }
}
