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

    public func schedule(at time: MediaTime, _ work: @escaping @Sendable () -> Void) {
        let delay = (try? time.subtracting(clock.now()).rescaled(to: 1_000_000_000, rounding: .up).value) ?? 0
        if delay <= 0 {
            queue.async(execute: work)
        } else {
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay)), execute: work)
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
