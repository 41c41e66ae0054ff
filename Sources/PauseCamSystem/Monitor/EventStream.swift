import Foundation
import PauseCamCore

/// The body of `GET /events`: Server-Sent Events, one engine event per `data:` message as the JSON object
/// `pausecam ctl watch` prints. Events wait in a `BoundedChannel` of at most `capacity` under `.dropOldest` (a
/// viewer that does not read loses news, never memory). A comment line every 5 s keeps proxies and the disconnect
/// check awake.
///
/// Threads: `send` and `wake` from any thread; `read` from the one connection thread that sends the body. The
/// channel is drained without waiting, so `read` waits for news on `news`, a semaphore signalled when an event
/// reaches an empty channel (and by `wake`): at most a second, so the server notices a client that left.
final class EventStream: HTTPBodyStream, Sendable {
    static let capacity = 256

    private let events = BoundedChannel<String>(capacity: EventStream.capacity, policy: .dropOldest)
    private let news = DispatchSemaphore(value: 0)
    /// What the connection thread is sending: the bytes and how far it got, and when a byte last left (the
    /// monotonic clock: a wall-clock step must not hold back the keep-alive).
    private struct Outgoing {
        var pending: [UInt8] = Array("retry: 1000\n\n".utf8)
        var offset = 0
        var lastWrite = ContinuousClock.now
    }

    private let outgoing = Guarded(Outgoing())
    private let closed = Guarded(false)
    private let isStopping: @Sendable () -> Bool
    private let onClose: @Sendable (EventStream) -> Void

    init(isStopping: @escaping @Sendable () -> Bool, onClose: @escaping @Sendable (EventStream) -> Void) {
        self.isStopping = isStopping
        self.onClose = onClose
    }

    /// Queues one event's JSON for this viewer; called from any thread.
    func send(_ json: String) {
        if case .accepted(wasEmpty: true) = events.send(json) { news.signal() }
    }

    /// Wakes a waiting `read` (the server is stopping).
    func wake() {
        news.signal()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if outgoing.withLock({ $0.offset == $0.pending.count }) {
            var drained = events.drain().items
            if drained.isEmpty && !isStopping() {
                _ = news.wait(timeout: .now() + .seconds(1))
                drained = events.drain().items
            }
            if isStopping() { return nil }
            let next: [UInt8]
            if drained.isEmpty {
                guard outgoing.withLock({ ContinuousClock.now - $0.lastWrite >= .seconds(5) }) else { return 0 }
                next = Array(": keep-alive\n\n".utf8)
            } else {
                next = Array(drained.map { "data: \($0)\n\n" }.joined().utf8)
            }
            outgoing.withLock { outgoing in
                outgoing.pending = next
                outgoing.offset = 0
            }
        }
        return outgoing.withLock { outgoing in
            let count = min(buffer.count, outgoing.pending.count - outgoing.offset)
            outgoing.pending.withUnsafeBytes { source in
                buffer.baseAddress!.copyMemory(from: source.baseAddress! + outgoing.offset, byteCount: count)
            }
            outgoing.offset += count
            outgoing.lastWrite = ContinuousClock.now
            return count
        }
    }

    func close() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { onClose(self) }
    }
}
