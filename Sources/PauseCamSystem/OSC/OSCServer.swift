import Foundation
import Glibc
import PauseCamCore

/// The OSC endpoint: a UDP socket on the rig's `osc.listen` address and one thread, `pausecam.osc`, that reads
/// every datagram, hands it to Core's `OSCResponder` (which decides everything) and sends what it answers; that
/// also sends the feedback: what changed as soon as `stateChanged()` wakes it, and everything once a second.
///
/// The serial context is never blocked here: the thread reaches the engine only through the responder's
/// `carryOut` and the `state` closure, both of which use `serialContext.perform` from this thread, and
/// `stateChanged()` (called from the events closure, on the serial context) only writes a byte into a pipe.
///
/// Thread contract: `start`, `stateChanged` and `stop` may be called from any thread; the socket is read and
/// written by the thread alone.
public final class OSCServer: Sendable {
    /// Datagrams larger than this are junk (`too_large`) and are not parsed: every command is far smaller, and
    /// liblo's own server refuses more than 32 KiB.
    public static let maximumPacketBytes = 8192
    /// Datagrams read in one round before the thread looks at its timer and its wake-up pipe again.
    static let datagramsPerRound = 256

    private let socket: UDPSocket
    private let responder: OSCResponder
    private let state: @Sendable () -> OSCFeedbackState?
    private let wakePipe = WakePipe()
    private let thread = CaptureThread()
    /// Set before the wake-up that ends the loop, so the loop sees it when it wakes (the thread's own stop flag
    /// is set only as its stop begins waiting).
    private let stopping = Guarded(false)

    /// The address it listens on (with the port the system chose, when the rig asked for 0).
    public var address: OSCPeer { socket.local }

    private init(socket: UDPSocket, responder: OSCResponder, state: @escaping @Sendable () -> OSCFeedbackState?) {
        self.socket = socket
        self.responder = responder
        self.state = state
    }

    /// Listens on the responder's `settings.listen` and starts the thread. `state` reads the rig's feedback state
    /// (on the serial context, through `perform`); `nil` leaves the feedback out this time. Throws when the
    /// address cannot be bound (taken, not this machine's).
    public static func start(responder: OSCResponder,
                             state: @escaping @Sendable () -> OSCFeedbackState?) throws(OSCServerError) -> OSCServer {
        let socket = try UDPSocket(binding: responder.settings.listen)
        let server = OSCServer(socket: socket, responder: responder, state: state)
        server.thread.start(name: "pausecam.osc") { [server] in server.serve() }
        return server
    }

    /// Something may have changed: the thread sends the changes at once. Cheap and non-blocking (one byte into a
    /// pipe; a full pipe already means "wake").
    public func stateChanged() { wakePipe.wake() }

    /// Stops the thread and waits for it; idempotent. The socket closes with the server.
    public func stop() {
        stopping.withLock { $0 = true }
        wakePipe.wake()
        thread.stop()
    }

    private var shouldStop: Bool { stopping.withLock { $0 } || thread.shouldStop }

    private func serve() {
        KernelThreadName.set("pausecam.osc")
        var nextTick = Self.nanoseconds() + 1_000_000_000
        while !shouldStop {
            let now = Self.nanoseconds()
            let timeout = Int32(clamping: max(0, (nextTick - now) / 1_000_000) + 1)
            let ready = (try? Poll.wait([socket.descriptor.rawValue, wakePipe.readEnd], timeout: timeout).get())
                ?? [0, 0]
            if shouldStop { break }
            if ready[1] != 0 {
                wakePipe.drain()
                if let current = state() { send(responder.feedback(current, everything: false)) }
            }
            if ready[0] != 0 { readDatagrams() }
            let after = Self.nanoseconds()
            if after >= nextTick {
                if let current = state() { send(responder.feedback(current, everything: true)) }
                nextTick = max(nextTick + 1_000_000_000, after + 1)
            }
        }
        _ = thread.end()
    }

    /// Reads what is waiting (at most `datagramsPerRound`), answering each.
    private func readDatagrams() {
        for _ in 0..<Self.datagramsPerRound {
            guard let datagram = try? socket.receive(capacity: Self.maximumPacketBytes + 1) else { return }
            let packet: Result<OSCMessage, OSCRejection>
            if datagram.size > Self.maximumPacketBytes {
                packet = .failure(.tooLarge)
            } else {
                packet = OSCCodec.decode(datagram.bytes).mapError(\.rejection)
            }
            send(responder.handle(packet, from: datagram.sender, atNanoseconds: Self.nanoseconds()))
        }
    }

    private func send(_ outgoing: [OSCResponder.Outgoing]) {
        for item in outgoing {
            guard let bytes = try? OSCCodec.encode(item.message) else { continue }
            socket.send(bytes, to: item.destination)
        }
    }

    /// The monotonic clock in nanoseconds.
    private static func nanoseconds() -> Int64 { Int64(clamping: DispatchTime.now().uptimeNanoseconds) }
}
