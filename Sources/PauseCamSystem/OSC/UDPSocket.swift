import Foundation
import Glibc
import PauseCamCore

/// The OSC endpoint's UDP socket, one wrapper per C call: bound to one address (so loopback means loopback),
/// non-blocking, close-on-exec, owned by its `FileDescriptor`. Datagrams come with their sender, read before a
/// byte of them is parsed.
final class UDPSocket: Sendable {
    let descriptor: FileDescriptor
    /// The address and port it is bound to (the port the system chose when 0 was asked).
    let local: OSCPeer

    /// One datagram read: its bytes (at most the buffer's size), its real size (larger when the kernel cut it),
    /// and its sender.
    struct Datagram {
        var bytes: [UInt8]
        var size: Int
        var sender: OSCPeer
    }

    /// A socket bound to `address`. Throws `OSCServerError` naming the call and the address.
    /// The corresponding C functions are `socket`, `bind` and `getsockname`.
    init(binding address: OSCPeer) throws(OSCServerError) {
        let family = address.host.contains(":") ? AF_INET6 : AF_INET
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let raw = Glibc.socket(family, type, 0)
        guard raw >= 0 else { throw .call("socket", address: address, failure: .current) }
        descriptor = FileDescriptor(owning: raw)
        guard var storage = Self.socketAddress(address) else { throw .badAddress(address) }
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(raw, $0, length) }
        }
        guard bound == 0 else { throw .call("bind", address: address, failure: .current) }
        var name = sockaddr_storage()
        var nameLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(raw, $0, &nameLength) }
        }
        guard named == 0, let peer = Self.peer(name) else {
            throw .call("getsockname", address: address, failure: .current)
        }
        local = peer
    }

    /// The next datagram, or `nil` when none is waiting. `capacity` bytes are kept; `size` tells the real length
    /// (`MSG_TRUNC`). The corresponding C function is `recvfrom`.
    func receive(capacity: Int) throws(Errno) -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: capacity)
        var sender = sockaddr_storage()
        var senderLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(descriptor.rawValue, raw.baseAddress, raw.count, Int32(MSG_TRUNC), $0, &senderLength)
                    }
                }
            }
            if count >= 0 {
                guard let peer = Self.peer(sender) else { return nil }
                return Datagram(bytes: Array(buffer.prefix(min(count, capacity))), size: count, sender: peer)
            }
            let failure = Errno.current
            if failure == .interrupted { continue }
            if failure == .wouldBlock { return nil }
            throw failure
        }
    }

    /// Sends one datagram to `destination`; a full send buffer drops it (false), as UDP may anyway.
    /// The corresponding C function is `sendto`.
    @discardableResult
    func send(_ bytes: [UInt8], to destination: OSCPeer) -> Bool {
        guard var address = Self.socketAddress(destination, mappedTo: local.host.contains(":")) else { return false }
        let length = socklen_t(address.ss_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size
                                                                            : MemoryLayout<sockaddr_in>.size)
        while true {
            let sent = bytes.withUnsafeBytes { raw in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(descriptor.rawValue, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, length)
                    }
                }
            }
            if sent >= 0 { return true }
            if Errno.current != .interrupted { return false }
        }
    }

    /// `address` as a `sockaddr_in` or `sockaddr_in6` (an IPv4 host as `::ffff:a.b.c.d` when `mappedTo` an IPv6
    /// socket); `nil` for a host that is not an IP literal. The corresponding C function is `inet_pton`.
    private static func socketAddress(_ address: OSCPeer, mappedTo ipv6: Bool = false) -> sockaddr_storage? {
        var storage = sockaddr_storage()
        let port = in_port_t(UInt16(clamping: address.port)).bigEndian
        let isIPv6 = address.host.contains(":")
        if !isIPv6 && !ipv6 {
            var inet = sockaddr_in()
            inet.sin_family = sa_family_t(AF_INET)
            inet.sin_port = port
            guard inet_pton(AF_INET, address.host, &inet.sin_addr) == 1 else { return nil }
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: withUnsafeBytes(of: inet) { $0 }) }
        } else {
            var inet6 = sockaddr_in6()
            inet6.sin6_family = sa_family_t(AF_INET6)
            inet6.sin6_port = port
            let host = isIPv6 ? address.host : "::ffff:" + address.host
            guard inet_pton(AF_INET6, host, &inet6.sin6_addr) == 1 else { return nil }
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: withUnsafeBytes(of: inet6) { $0 }) }
        }
        return storage
    }

    /// A NUL-terminated C string in `buffer` as text.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A sender's address as an IP literal and port. The corresponding C function is `inet_ntop`.
    private static func peer(_ storage: sockaddr_storage) -> OSCPeer? {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet -> OSCPeer? in
                    var raw = inet.pointee.sin_addr
                    guard inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil else { return nil }
                    return OSCPeer(host: Self.text(text), port: Int(UInt16(bigEndian: inet.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet -> OSCPeer? in
                    var raw = inet.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else { return nil }
                    let host = OSCPeer.unmapped(Self.text(text))
                    return OSCPeer(host: host, port: Int(UInt16(bigEndian: inet.pointee.sin6_port)))
                }
            }
        default:
            return nil
        }
    }
}
