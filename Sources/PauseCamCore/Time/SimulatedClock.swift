import Foundation

/// A clock that only moves when told to. Tests and the simulated virtual rig advance it; it never reads real time.
public final class SimulatedClock: Clock {
    private let current: Guarded<MediaTime>

    /// A clock reading `start` (by default one hour, so that "before the start" times stay positive).
    public init(start: MediaTime = .seconds(3600)) { current = Guarded(start) }

    public func now() -> MediaTime { current.withLock { $0 } }

    /// Moves the clock to `time`. Moving it backwards is a programming error: the clock is monotonic.
    public func set(_ time: MediaTime) {
        current.withLock { current in
            precondition(time >= current, "SimulatedClock moved backwards from \(current) to \(time)")
            current = time
        }
    }
}

/// A discrete-event serial context on a `SimulatedClock`: `advance(until:)` pops events in time order (ties in the order
/// they were scheduled), sets the clock to each event's time and runs it, on the calling thread. Determinism
/// follows: the same events scheduled from the same start always run in the same order at the same times.
///
/// The serial context is a fair, re-entrant ticket lock rather than a thread: an event and a `perform` each hold it
/// while they run, so work that arrives from other threads (the control socket, pedal signals) during a long
/// `advance` waits for the event in progress, runs alone, and lets the loop go on. `advance` takes the context per
/// event, never for its whole span, so a `wait 10m` on the simulated clock still answers `status` at once.
/// Unchecked Sendable: a ticket lock built on `NSCondition` (a `Guarded` cannot wait): `owner`, `depth` and the
/// tickets are touched only while `context` is locked; the events wait in a `Guarded` queue.
public final class SimulatedSerialContext: SerialContext, @unchecked Sendable {
    private struct Event {
        let time: MediaTime
        let sequence: UInt64
        let work: @Sendable () -> Void
    }

    /// The scheduled events, a binary heap ordered by (time, sequence), and whether `interrupt()` was asked.
    private struct EventQueue {
        var heap: [Event] = []
        var nextSequence: UInt64 = 0
        var interrupted = false

        mutating func push(_ time: MediaTime, _ work: @escaping @Sendable () -> Void) {
            heap.append(Event(time: time, sequence: nextSequence, work: work))
            nextSequence += 1
            siftUp(heap.count - 1)
        }

        private func before(_ a: Event, _ b: Event) -> Bool {
            a.time != b.time ? a.time < b.time : a.sequence < b.sequence
        }

        private mutating func siftUp(_ start: Int) {
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard before(heap[child], heap[parent]) else { return }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popFirst() -> Event {
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

    public let simulatedClock: SimulatedClock
    public var clock: any Clock { simulatedClock }
    /// Simulated time moves only when the loop runs, so slow work must hold the loop back, never be skipped.
    public var timeWaitsForWork: Bool { true }
    private let events = Guarded(EventQueue())

    /// The context's owner and its nesting depth, and the ticket lock that hands it over in arrival order.
    private let context = NSCondition()
    private var owner: Thread?
    private var depth = 0
    private var nextTicket: UInt64 = 0
    private var nowServing: UInt64 = 0

    public init(clock: SimulatedClock = SimulatedClock()) { simulatedClock = clock }

    /// True for the thread that holds the context (inside an event or `perform`), and for any thread while nobody
    /// holds it: tests and the composition root set a rig up from one thread before the loop runs.
    public var isOnSerialContext: Bool {
        context.lock()
        defer { context.unlock() }
        return owner == nil || owner === Thread.current
    }

    private func enter() {
        let me = Thread.current
        context.lock()
        defer { context.unlock() }
        if owner === me {
            depth += 1
            return
        }
        let ticket = nextTicket
        nextTicket += 1
        while owner != nil || nowServing != ticket { context.wait() }
        owner = me
        depth = 1
    }

    private func leave() {
        context.lock()
        defer { context.unlock() }
        depth -= 1
        if depth == 0 {
            owner = nil
            nowServing += 1
            context.broadcast()
        }
    }

    public func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void) {
        events.withLock { $0.push(time, work) }
    }

    public func perform<T>(_ work: () throws -> T) rethrows -> T {
        enter()
        defer { leave() }
        return try work()
    }

    @discardableResult
    public func advance(until time: MediaTime) -> Bool {
        while true {
            enter()
            let next: Event? = events.withLock { events in
                if events.interrupted { return nil }
                guard let first = events.heap.first, first.time <= time else { return nil }
                return events.popFirst()
            }
            guard let event = next else {
                leave()
                break
            }
            if event.time > simulatedClock.now() { simulatedClock.set(event.time) }
            event.work()
            leave()
        }
        let wasInterrupted = events.withLock { events -> Bool in
            defer { events.interrupted = false }
            return events.interrupted
        }
        if wasInterrupted { return false }
        if time > simulatedClock.now() { simulatedClock.set(time) }
        return true
    }

    /// Runs every pending event whose time has come (`<= now`), without moving the clock.
    public func runDue() { advance(until: simulatedClock.now()) }

    public func interrupt() { events.withLock { $0.interrupted = true } }

    /// How many events are waiting.
    public var pendingCount: Int { events.withLock { $0.heap.count } }
}
