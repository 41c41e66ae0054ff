import Foundation
import Synchronization

/// A value that several threads share, reachable only inside `withLock`: the project's one lock for state shared
/// between threads, used wherever Swift's `Mutex` would be.
///
/// In a normal build it is exactly a `Mutex` (the same storage, the same inlined lock). Built with the compilation
/// condition `PAUSECAM_TSAN_VISIBLE_LOCKS` (`scripts/test-sanitizers` sets it for ThreadSanitizer), every
/// `withLock` also holds an `NSLock` around the `Mutex`. The reason: on Linux the standard library's `Mutex` waits
/// in code that ThreadSanitizer does not instrument, so ThreadSanitizer misses the ordering a contended `Mutex`
/// gives and reports a race between two critical sections of the same lock. `NSLock` is a pthread mutex, whose
/// lock and unlock ThreadSanitizer intercepts, so the ordering is seen and only real races are reported, without a
/// suppression that could hide one. The inner `Mutex` is then never contended, and the values, the `sending` rules
/// and the lock order stay the same in both builds.
///
/// Like `Mutex`, it is not reentrant: calling `withLock` again from inside `body` on the same value deadlocks.
@frozen
public struct Guarded<Value: ~Copyable>: ~Copyable {
    @usableFromInline
    let mutex: Mutex<Value>

    #if PAUSECAM_TSAN_VISIBLE_LOCKS
    /// The lock ThreadSanitizer sees, always taken before `mutex`.
    @usableFromInline
    let visibleLock = NSLock()
    #endif

    /// A guarded `initialValue`, which from now on is reachable only through `withLock`.
    @inlinable
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the value while no other thread holds the lock, and returns what `body` returns. Waits for
    /// the lock; keep `body` short and free of I/O and of other locks' waits where possible.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if PAUSECAM_TSAN_VISIBLE_LOCKS
        visibleLock.lock()
        defer { visibleLock.unlock() }
        #endif
        return try mutex.withLock(body)
    }
}

/// Sendable for any value, as `Mutex` is: the value is only reached under the lock, and `sending` keeps what goes in
/// and comes out from staying reachable outside it.
extension Guarded: Sendable where Value: ~Copyable {}
