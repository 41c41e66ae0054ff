import Foundation
import PauseCamCore

/// The body of `GET /events`: Server-Sent Events, one engine event per `data:` message as the JSON object
/// `pausecam ctl watch` prints. Events wait in a queue of at most `capacity`; past it the oldest are dropped (a
/// viewer that does not read loses news, never memory). A comment line every 5 s keeps proxies and the
/// disconnect check awake.
/// Unchecked Sendable: its queue and state are under `condition`; the pending bytes belong to the connection thread reading the body.
final class EventStream: HTTPBodyStream, @unchecked Sendable {
    static let capacity = 256

    private let condition = NSCondition()
    private var queue: [String] = []
    private var pending: [UInt8] = Array("retry: 1000\n\n".utf8)
    private var offset = 0
    /// When a byte last left (the monotonic clock: a wall-clock step must not hold back the keep-alive).
    private var lastWrite = ContinuousClock.now
    private var closed = false
    private let isStopping: @Sendable () -> Bool
    private let onClose: @Sendable (EventStream) -> Void

    init(isStopping: @escaping @Sendable () -> Bool, onClose: @escaping @Sendable (EventStream) -> Void) {
        self.isStopping = isStopping
        self.onClose = onClose
    }

    /// Queues one event's JSON for this viewer; called from any thread.
    func send(_ json: String) {
        condition.lock()
        queue.append(json)
        if queue.count > Self.capacity { queue.removeFirst(queue.count - Self.capacity) }
        condition.signal()
        condition.unlock()
    }

    /// Wakes a waiting `read` (the server is stopping).
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if offset == pending.count {
            condition.lock()
            if queue.isEmpty && !isStopping() { _ = condition.wait(until: Date().addingTimeInterval(1)) }
            let events = queue
            queue.removeAll()
            condition.unlock()
            if isStopping() { return nil }
            if events.isEmpty {
                guard ContinuousClock.now - lastWrite >= .seconds(5) else { return 0 }
                pending = Array(": keep-alive\n\n".utf8)
            } else {
                pending = Array(events.map { "data: \($0)\n\n" }.joined().utf8)
            }
            offset = 0
        }
        let count = min(buffer.count, pending.count - offset)
        pending.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        lastWrite = ContinuousClock.now
        return count
    }

    func close() {
        condition.lock()
        let first = !closed
        closed = true
        condition.unlock()
        if first { onClose(self) }
    }
}
