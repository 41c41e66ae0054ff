import Foundation

/// A clock that only moves when told to. Tests and the simulated virtual rig advance it; it never reads real time.
public final class SimulatedClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: MediaTime

    /// A clock reading `start` (by default one hour, so that "before the start" times stay positive).
    public init(start: MediaTime = .seconds(3600)) { current = start }

    public func now() -> MediaTime { lock.withLock { current } }

    /// Moves the clock to `time`. Moving it backwards is a programming error: the clock is monotonic.
    public func set(_ time: MediaTime) {
        lock.withLock {
            precondition(time >= current, "SimulatedClock moved backwards from \(current) to \(time)")
            current = time
        }
    }
}

/// A discrete-event serialContext on a `SimulatedClock`: `advance(until:)` pops events in time order (ties in the order
/// they were scheduled), sets the clock to each event's time and runs it, all on the calling thread. Determinism
/// follows: the same events scheduled from the same start always run in the same order at the same times.
public final class SimulatedSerialContext: SerialContext, @unchecked Sendable {
    private struct Event {
        let time: MediaTime
        let sequence: UInt64
        let work: @Sendable () -> Void
    }

    public let simulatedClock: SimulatedClock
    public var clock: any Clock { simulatedClock }
    private let lock = NSLock()
    private var heap: [Event] = []
    private var nextSequence: UInt64 = 0
    private var interrupted = false
    /// The thread inside `advance`/`perform` now, and how deeply: the serial context, while it runs.
    private var runningThread: Thread?
    private var runningDepth = 0

    public init(clock: SimulatedClock = SimulatedClock()) { simulatedClock = clock }

    /// Every event and `perform` runs on the calling thread, so the serial context is whichever thread drives the
    /// loop: a caller is on it unless another thread is inside `advance` or `perform` right now. (Tests and the
    /// composition root set a rig up from one thread before the loop runs; that is allowed.)
    public var isOnSerialContext: Bool {
        lock.withLock { runningDepth == 0 || runningThread === Thread.current }
    }

    private func enter() {
        lock.withLock {
            if runningDepth == 0 { runningThread = Thread.current }
            runningDepth += 1
        }
    }

    private func leave() {
        lock.withLock {
            runningDepth -= 1
            if runningDepth == 0 { runningThread = nil }
        }
    }

    public func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void) {
        lock.withLock {
            heap.append(Event(time: time, sequence: nextSequence, work: work))
            nextSequence += 1
            siftUp(heap.count - 1)
        }
    }

    public func perform<T>(_ work: () throws -> T) rethrows -> T {
        enter()
        defer { leave() }
        return try work()
    }

    @discardableResult
    public func advance(until time: MediaTime) -> Bool {
        enter()
        defer { leave() }
        while true {
            let next: Event? = lock.withLock {
                if interrupted { return nil }
                guard let first = heap.first, first.time <= time else { return nil }
                return popFirst()
            }
            guard let event = next else { break }
            if event.time > simulatedClock.now() { simulatedClock.set(event.time) }
            event.work()
        }
        let wasInterrupted = lock.withLock { () -> Bool in
            let was = interrupted
            interrupted = false
            return was
        }
        if wasInterrupted { return false }
        if time > simulatedClock.now() { simulatedClock.set(time) }
        return true
    }

    /// Runs every pending event whose time has come (`<= now`), without moving the clock.
    public func runDue() { advance(until: simulatedClock.now()) }

    public func interrupt() { lock.withLock { interrupted = true } }

    /// How many events are waiting.
    public var pendingCount: Int { lock.withLock { heap.count } }

    // MARK: Binary heap ordered by (time, sequence)

    private func before(_ a: Event, _ b: Event) -> Bool {
        a.time != b.time ? a.time < b.time : a.sequence < b.sequence
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popFirst() -> Event {
        let first = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && before(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count && before(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }
}
