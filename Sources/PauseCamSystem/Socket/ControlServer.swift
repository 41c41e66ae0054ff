#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PauseCamCore

/// The control socket of a running PauseCam: one thread with one `poll` loop serves every client, each with its
/// own `ControlLineFramer` and output buffer, so no client can hold up the others or the recorder:
///
/// - a line over 4 KiB gets an error and the connection is closed; a line with a NUL byte or another control
///   character, or invalid UTF-8, gets an error and nothing of it is done;
/// - a client that sends no complete line for `idleTimeout` (silent, or half a line and then nothing) gets an error
///   and is closed; `watch` clients are exempt (they only listen);
/// - writes never block: a client that does not read its replies or events is closed once `maximumPendingBytes`
///   wait for it;
/// - a client of another user (the kernel's `SO_PEERCRED`) is refused before it is heard;
/// - `watch` clients have places of their own (`maximumWatchers`), apart from the clients that send commands
///   (`maximumClients`): listeners that stay for hours never take the place of a `ctl` that comes and goes, and one
///   watcher too many is told so and closed.
///
/// Requests are answered by the `answer` closure on one worker queue, in the order they came (it waits for the
/// serial context like a script step does); its replies come back to the poll loop, which therefore never waits
/// for the recorder and goes on timing out, refusing and serving everyone else meanwhile. Events reach `watch`
/// clients through `publish`, callable from any thread without waiting.
/// Connections belong to the server's thread (locals of its loop); what other threads touch (pending events and
/// answers, stopping) is under `shared`.
public final class ControlServer: Sendable {
    /// The limits on one client.
    public struct Limits: Sendable {
        /// How long a client may take to send a complete request line.
        public var idleTimeout: Duration = .seconds(10)
        /// Connections served at once, watchers apart; one more is told so and closed.
        public var maximumClients = 32
        /// `watch` clients listening at once; one more is told so and closed. Each holds only its socket and the
        /// events queued for it.
        public var maximumWatchers = 32
        /// Output waiting for a client that does not read; past it the client is closed.
        public var maximumPendingBytes = 1 << 20
        public init() {}
    }

    private final class Client {
        /// The connection, owned by this client: closed when the client is dropped from the loop.
        let descriptor: FileDescriptor
        /// Unique for the server's life (a descriptor number is reused once closed): answers find their client by it.
        let id: Int
        /// Requests handed to the worker and not answered yet: the idle timeout waits for them.
        var unanswered = 0
        var framer = ControlLineFramer()
        var output: [UInt8] = []
        var deadline: UInt64
        var watching = false
        /// Send what is queued, then close (after a refusal, a too-long line, or the client's end of input).
        var closing = false
        init(descriptor: FileDescriptor, id: Int, deadline: UInt64) {
            self.descriptor = descriptor
            self.id = id
            self.deadline = deadline
        }
    }

    /// The socket's path.
    public let path: String
    private let lock: ControlSocketLock
    /// The listening socket, owned by the server; closed by its thread when it stops.
    private let listener: FileDescriptor
    private let limits: Limits
    private let answer: @Sendable (String) -> ControlDispatcher.Answer
    private let wake = WakePipe()
    /// What other threads hand to the poll loop.
    private struct Shared {
        var pendingEvents: [String] = []
        /// Answers from the worker, for the poll loop to queue to their client (if it is still connected).
        var pendingAnswers: [(client: Int, answer: ControlDispatcher.Answer)] = []
        var stopping = false
    }

    private let shared = Guarded(Shared())
    private let worker = DispatchQueue(label: "pausecam.control.requests")
    private let finished = DispatchSemaphore(value: 0)

    /// Binds the socket claimed by `lock` (mode 0600), replacing a stale one, and starts serving on a new thread.
    /// A socket file that still answers although its lock was free is left alone and reported.
    public static func start(lock: ControlSocketLock, limits: Limits = Limits(),
                             answer: @escaping @Sendable (String) -> ControlDispatcher.Answer) throws(SocketError) -> ControlServer {
        let path = lock.socketPath
        try removeStaleSocket(at: path)
        let listener = try SocketCalls.streamSocket(path: path)
        do throws(SocketError) {
            try SocketCalls.bind(listener, path: path)
            try SocketCalls.setMode(path, 0o600)
            try SocketCalls.listen(listener, backlog: 16, path: path)
            try SocketCalls.setNonBlocking(listener, path: path)
        } catch {
            try? listener.close()
            throw error
        }
        let server = ControlServer(path: path, lock: lock, listener: listener, limits: limits, answer: answer)
        let thread = Thread { [server] in server.serve() }
        thread.name = "pausecam.control"
        thread.start()
        return server
    }

    private init(path: String, lock: ControlSocketLock, listener: FileDescriptor, limits: Limits,
                 answer: @escaping @Sendable (String) -> ControlDispatcher.Answer) {
        self.path = path
        self.lock = lock
        self.listener = listener
        self.limits = limits
        self.answer = answer
    }

    /// A socket file left by a process that died without cleaning up: the lock was free (we hold it now), and a
    /// connection is refused. Anything else at the path is not ours to remove.
    static func removeStaleSocket(at path: String) throws(SocketError) {
        guard let status = try SocketCalls.fileStatus(path) else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw .occupied(path: path, reason: "exists and is not a socket")
        }
        if ControlClient.isAnswering(path: path) {
            throw .occupied(path: path, reason: "answers although no PauseCam holds its lock (another program's socket?)")
        }
        try SocketCalls.remove(path)
    }

    /// Sends `jsonLine` to every `watch` client. Never waits: the line is queued for the server's thread.
    public func publish(_ jsonLine: String) {
        shared.withLock { $0.pendingEvents.append(jsonLine) }
        wake.wake()
    }

    /// Stops serving, closes every connection and removes the socket; returns when the thread has ended.
    public func stop() {
        let wasRunning: Bool = shared.withLock { shared in
            defer { shared.stopping = true }
            return !shared.stopping
        }
        guard wasRunning else { return }
        wake.wake()
        finished.wait()
        try? SocketCalls.remove(path)
        lock.release()
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private var idleNanoseconds: UInt64 {
        let (seconds, attoseconds) = limits.idleTimeout.components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    private func serve() {
        var clients: [Client] = []
        /// Unique for the server's life (a descriptor number is reused once closed).
        var nextClientID = 0
        while !shared.withLock({ $0.stopping }) {
            var requests = [(descriptor: wake.readEnd, events: Int16(POLLIN)),
                            (descriptor: listener.rawValue, events: Int16(POLLIN))]
            for client in clients {
                var events: Int16 = client.closing ? 0 : Int16(POLLIN)
                if !client.output.isEmpty { events |= Int16(POLLOUT) }
                // A closing client with nothing to send (its answer is still being worked out) is left out of the
                // poll: a peer that hung up would otherwise report POLLHUP on every round and spin the loop.
                let idle = client.closing && client.output.isEmpty
                requests.append((descriptor: idle ? -1 : client.descriptor.rawValue, events: events))
            }
            let now = Self.now()
            let nextDeadline = clients.filter { !$0.watching && $0.unanswered == 0 }.map(\.deadline).min()
            let timeout = nextDeadline.map { Int32(clamping: ($0 > now ? $0 - now : 0) / 1_000_000 + 1) } ?? -1
            // A failed poll (it cannot fail for these descriptors but by ENOMEM) counts as "nothing ready".
            let revents = (try? Poll.wait(requests, timeout: timeout).get()) ?? Array(repeating: 0, count: requests.count)

            if revents[0] != 0 {
                wake.drain()
                let (events, answers) = shared.withLock { shared in
                    defer { shared.pendingEvents = []; shared.pendingAnswers = [] }
                    return (shared.pendingEvents, shared.pendingAnswers)
                }
                for (id, answer) in answers {
                    guard let client = clients.first(where: { $0.id == id }) else { continue }
                    client.unanswered -= 1
                    client.deadline = Self.now() + idleNanoseconds
                    switch answer {
                    case .reply(let reply):
                        queue(reply.line, to: client)
                    case .watch(let reply):
                        if clients.count(where: { $0.watching }) >= limits.maximumWatchers {
                            refuse(client, "refused: \(limits.maximumWatchers) watchers are listening already")
                        } else {
                            queue(reply.line, to: client)
                            client.watching = true
                        }
                    }
                }
                for client in clients where client.watching && !client.closing {
                    for event in events { queue(event, to: client) }
                }
            }
            for (index, client) in clients.enumerated() {
                if revents[index + 2] & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(client) }
                flush(client)
            }
            if revents[1] != 0 { acceptClients(into: &clients, nextID: &nextClientID) }
            let later = Self.now()
            for client in clients where !client.watching && !client.closing && client.unanswered == 0
                && later >= client.deadline {
                let what = client.framer.hasPartialLine ? "an unfinished line" : "no request"
                queue(ControlReply.error("\(what) for \(limits.idleTimeout); closing the connection").line, to: client)
                client.closing = true
                flush(client)
            }
            clients.removeAll { client in
                // A closing client that does not take its last reply within the idle timeout is dropped with it.
                let done = (client.closing && client.unanswered == 0 && (client.output.isEmpty || later >= client.deadline))
                    || client.output.count > limits.maximumPendingBytes
                if done { try? client.descriptor.close() }
                return done
            }
        }
        for client in clients { try? client.descriptor.close() }
        try? listener.close()
        finished.signal()
    }

    private func acceptClients(into clients: inout [Client], nextID nextClientID: inout Int) {
        while let descriptor = try? SocketCalls.accept(listener, path: path) {
            let client = Client(descriptor: descriptor, id: nextClientID, deadline: Self.now() + idleNanoseconds)
            nextClientID += 1
            clients.append(client)
            do throws(SocketError) {
                try SocketCalls.setNonBlocking(descriptor, path: path)
                let peer = try SocketCalls.peerUserID(descriptor, path: path)
                if peer != SocketCalls.userID {
                    refuse(client, "refused: user \(peer) may not control a recording of user \(SocketCalls.userID)")
                } else if clients.count(where: { !$0.watching }) > limits.maximumClients {
                    refuse(client, "refused: \(limits.maximumClients) connections are open already")
                }
            } catch {
                refuse(client, "refused: \(error)")
            }
        }
    }

    private func refuse(_ client: Client, _ message: String) {
        queue(ControlReply.error(message).line, to: client)
        client.closing = true
        flush(client)
    }

    /// Reads what the client sent (a bounded amount per round, so a fast sender cannot starve the others) and
    /// answers every complete line.
    private func receive(_ client: Client) {
        guard !client.closing else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 {
            let transfer = buffer.withUnsafeMutableBytes { SocketCalls.read(client.descriptor, into: $0) }
            switch transfer {
            case .wouldBlock:
                return
            case .end:
                client.closing = true
                return
            case .bytes(let count):
                for output in client.framer.append(buffer[..<count]) {
                    handle(output, from: client)
                }
                if client.closing { return }
            }
        }
    }

    private func handle(_ output: ControlLineFramer.Output, from client: Client) {
        client.deadline = Self.now() + idleNanoseconds
        switch output {
        case .line(let line):
            if client.watching || line.trimmingCharacters(in: .whitespaces).isEmpty { return }
            client.unanswered += 1
            let id = client.id
            worker.async { [self] in
                let answer = self.answer(line)
                shared.withLock { $0.pendingAnswers.append((id, answer)) }
                wake.wake()
            }
        case .junk(let reason):
            queue(ControlReply.error(reason).line, to: client)
        case .tooLong:
            queue(ControlReply.error(ControlLineFramer.tooLongMessage).line, to: client)
            client.closing = true
        }
    }

    private func queue(_ line: String, to client: Client) {
        client.output.append(contentsOf: line.utf8)
        client.output.append(UInt8(ascii: "\n"))
    }

    /// Sends what the socket takes now; a client gone away is closed.
    private func flush(_ client: Client) {
        while !client.output.isEmpty {
            let transfer = client.output.withUnsafeBytes { SocketCalls.send(client.descriptor, $0) }
            switch transfer {
            case .bytes(let count):
                client.output.removeFirst(count)
            case .wouldBlock:
                return
            case .end:
                client.output = []
                client.closing = true
                return
            }
        }
    }
}
