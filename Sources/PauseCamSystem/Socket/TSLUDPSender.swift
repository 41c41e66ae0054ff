#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// Sends TSL UMD 5.0 packets (`TSLUMDPacket`, built in Core) as UDP datagrams to one IPv4 destination, from an
/// unbound, non-blocking socket: a tally never waits for the network, and a receiver that is not there costs
/// nothing (the datagram is lost; the next refresh carries the state again).
///
/// Thread contract: `send` and `close` from one thread at a time (the serial context).
public final class TSLUDPSender {
    private let descriptor: FileDescriptor
    private var address: sockaddr_in
    /// `HOST:PORT`, for messages.
    public let destination: String

    /// A socket for `host` (an IPv4 literal) and `port`. Throws the failing call and its errno.
    public init(host: String, port: Int) throws(SocketError) {
        destination = "\(host):\(port)"
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw .call("inet_pton", path: destination, failure: Errno(rawValue: EINVAL))
        }
        self.address = address
        descriptor = try Self.datagramSocket(destination: destination)
    }

    /// A new UDP socket, close-on-exec and non-blocking, owned by the caller. The corresponding C function is
    /// `socket`.
    private static func datagramSocket(destination: String) throws(SocketError) -> FileDescriptor {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        switch retryingOnInterrupt({ socket(AF_INET, type, 0) }) {
        case .success(let descriptor): return FileDescriptor(owning: descriptor)
        case .failure(let failure): throw .call("socket", path: destination, failure: failure)
        }
    }

    /// Sends one packet as one datagram. A full socket buffer (EAGAIN) drops it and says so; the caller's next refresh
    /// sends the state again. The corresponding C function is `sendto`.
    public func send(_ packet: [UInt8]) throws(SocketError) {
        var address = self.address
        let result = packet.withUnsafeBytes { bytes in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                    retryingOnInterrupt {
                        sendto(descriptor.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), target,
                               socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        }
        if case .failure(let failure) = result { throw .call("sendto", path: destination, failure: failure) }
    }

    /// Closes the socket.
    public func close() { try? descriptor.close() }
}
