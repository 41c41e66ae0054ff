import Dispatch
import Foundation
import Synchronization
import PauseCamCore

/// The real-time `SerialContext`: one serial dispatch queue is the engine's context; timers are set on
/// `CLOCK_MONOTONIC`; `advance(until:)` sleeps the calling thread (the shell's or the script runner's) while
/// devices and timers go on.
public final class RealTimeSerialContext: SerialContext {
    public let clock: any Clock
    private let queue = DispatchQueue(label: "pausecam.engine")
    private let key = DispatchSpecificKey<Bool>()
    /// Wakes a sleeping `advance`; `interrupted` is set and cleared while it is locked, so no wake-up is lost.
    private let condition = NSCondition()
    private let interrupted = Atomic(false)

    public init(clock: any Clock = MonotonicClock()) {
        self.clock = clock
        queue.setSpecific(key: key, value: true)
    }

    /// Work waiting for its time, in (time, order scheduled) order. Each entry also has a dispatch timer (or, when
    /// due, an `async`); whichever fires runs every entry up to and including its own, in order. Dispatch alone
    /// gives no order between a timer and an `async`, or between timers whose deadlines were computed from two
    /// readings of the clock: two group commands for one frame slot could run the wrong way round.
    private struct Pending {
        struct Entry {
            var time: MediaTime
            var ticket: UInt64
            var work: @Sendable () -> Void
        }

        var entries: [Entry] = []
        var nextTicket: UInt64 = 0

        /// Inserts after every entry of the same or an earlier time; returns its ticket.
        mutating func insert(at time: MediaTime, _ work: @escaping @Sendable () -> Void) -> UInt64 {
            let ticket = nextTicket
            nextTicket &+= 1
            var low = entries.startIndex, high = entries.endIndex
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].time <= time { low = middle + 1 } else { high = middle }
            }
            entries.insert(Entry(time: time, ticket: ticket, work: work), at: low)
            return ticket
        }

        /// Takes the first entry if it comes no later than (`time`, `ticket`).
        mutating func takeFirst(through time: MediaTime, ticket: UInt64) -> Entry? {
            guard let first = entries.first,
                  first.time < time || (!(time < first.time) && first.ticket <= ticket) else { return nil }
            return entries.removeFirst()
        }
    }

    private let pending = Guarded(Pending())

    public func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void) {
        let ticket = pending.withLock { $0.insert(at: time, work) }
        let delay = (try? time.subtracting(clock.now()).rescaled(to: 1_000_000_000, rounding: .up).value) ?? 0
        let run: @Sendable () -> Void = { [self] in runPending(through: time, ticket: ticket) }
        if delay <= 0 {
            queue.async(execute: run)
        } else {
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay)), execute: run)
        }
    }

    /// On the queue: runs, in order, every waiting entry up to (`time`, `ticket`); the entry may have run already,
    /// taken by an earlier trigger of a later entry.
    private func runPending(through time: MediaTime, ticket: UInt64) {
        while let entry = pending.withLock({ $0.takeFirst(through: time, ticket: ticket) }) {
            entry.work()
        }
    }

    /// True on the engine's dispatch queue (inside `perform` or a scheduled work item).
    public var isOnSerialContext: Bool { DispatchQueue.getSpecific(key: key) == true }

    public func perform<T>(_ work: () throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: key) == true { return try work() }
        return try queue.sync(execute: work)
    }

    @discardableResult
    public func advance(until time: MediaTime) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !interrupted.load(ordering: .relaxed) {
            let remaining = (try? time.subtracting(clock.now()).rescaled(to: 1_000_000_000, rounding: .up).value) ?? 0
            if remaining <= 0 { return true }
            // NSCondition waits on the wall clock; short slices keep a clock step from stretching the wait,
            // since the loop re-reads the monotonic clock after each.
            let slice = Swift.min(Double(remaining) / 1e9, 0.1)
            _ = condition.wait(until: Date(timeIntervalSinceNow: slice))
        }
        interrupted.store(false, ordering: .relaxed)
        return false
    }

    public func interrupt() {
        condition.lock()
        interrupted.store(true, ordering: .relaxed)
        condition.broadcast()
        condition.unlock()
    }
}
