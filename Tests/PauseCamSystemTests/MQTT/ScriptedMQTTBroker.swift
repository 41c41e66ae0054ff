import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in broker on 127.0.0.1 that speaks just enough MQTT 5 to play what Mosquitto never does: it accepts a
/// connection, reads its CONNECT, answers with a successful CONNACK, and then (if told to) sends a DISCONNECT with a
/// reason code, as other brokers do when they shut down. Each accepted connection plays the next entry of `script`.
final class ScriptedMQTTBroker: @unchecked Sendable {
    /// What one connection gets after its CONNACK: a DISCONNECT with this MQTT 5 reason code, or nothing (the
    /// connection is left open until the broker is closed).
    let script: [UInt8?]
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var connectPackets = 0
    private var thread: Thread?

    init(script: [UInt8?]) throws {
        self.script = script
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        } && listen(listener, 4) == 0
        guard ready else {
            Glibc.close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
        self.thread = thread
    }

    /// How many CONNECT packets arrived so far.
    var connects: Int { lock.withLock { connectPackets } }

    /// Stops accepting and closes every connection.
    func close() {
        // SHUT_RDWR is 2 on Linux. Named here because this test module also imports C modules whose shims include
        // <sys/socket.h>, and Clang credits its anonymous enum to one of them or to Glibc depending on build order.
        let bothDirections: Int32 = 2
        shutdown(listener, bothDirections)
        lock.withLock {
            connections.forEach { shutdown($0, bothDirections) }
        }
    }

    deinit {
        close()
        Glibc.close(listener)
        lock.withLock { connections.forEach { Glibc.close($0) } }
    }

    private func serve() {
        for step in script {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            lock.withLock { connections.append(connection) }
            guard let first = readPacket(connection), first >> 4 == 1 else { return }
            lock.withLock { connectPackets += 1 }
            // CONNACK: no session present, reason 0 (success), no properties.
            guard send(connection, [0x20, 0x03, 0x00, 0x00, 0x00]) else { return }
            if let reason = step {
                // DISCONNECT: the reason code, no properties; then the broker closes its end.
                _ = send(connection, [0xE0, 0x02, reason, 0x00])
                shutdown(connection, Int32(SHUT_WR))
            }
        }
    }

    /// One whole packet's first byte (type and flags), its body read and dropped; nil at the end of the stream.
    private func readPacket(_ connection: Int32) -> UInt8? {
        guard let first = readBytes(connection, 1)?.first else { return nil }
        var length = 0
        var multiplier = 1
        while true {
            guard let byte = readBytes(connection, 1)?.first else { return nil }
            length += Int(byte & 0x7f) * multiplier
            multiplier *= 128
            if byte & 0x80 == 0 { break }
        }
        guard readBytes(connection, length) != nil else { return nil }
        return first
    }

    private func readBytes(_ connection: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + done, count - done, 0) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { return nil }
            done += got
        }
        return bytes
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
