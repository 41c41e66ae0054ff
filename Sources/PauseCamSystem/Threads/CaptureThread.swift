import Foundation
import PauseCamCore

/// The life of one device's capture thread, shared by cameras and microphones: start once, a stop flag the loop
/// polls, and a stop that waits for the loop to end — except when called from the loop itself (a `deliver` that
/// stops its own device), which must not wait for itself.
///
/// It does not run the loop's body: the device's `captureLoop` does, polling `shouldStop`, and calls `end()` when
/// it leaves, which tells whether it ended by itself (an unplugged device) or because `stop()` asked.
final class CaptureThread: Sendable {
    /// One run's flags, the loop thread's identity (to tell a stop from inside the loop) and its end signal.
    private struct State {
        var running = false
        var stopRequested = false
        var loopThread: ObjectIdentifier?
        var finished: DispatchSemaphore?
    }

    private let state = Guarded(State())

    /// True from `start` until the loop calls `end()`.
    var isRunning: Bool { state.withLock { $0.running } }

    /// True once `stop()` was called for this run; the loop checks it between waits.
    var shouldStop: Bool { state.withLock { $0.stopRequested } }

    /// Runs `loop` on a new thread named `name`. The caller has checked `isRunning` (under its own lock).
    func start(name: String, _ loop: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            loop()
            done.signal()
        }
        thread.name = name
        // The identity of a running thread's object: Foundation keeps that object alive until the thread ends.
        let identity = ObjectIdentifier(thread)
        state.withLock { state in
            state = State(running: true, stopRequested: false, loopThread: identity, finished: done)
        }
        thread.start()
    }

    /// Called by the loop as it leaves; returns true when it ended by itself rather than because of `stop()`.
    func end() -> Bool {
        state.withLock { state in
            state.running = false
            state.loopThread = nil
            return !state.stopRequested
        }
    }

    /// Asks the loop to stop and waits for it (not when called from the loop itself). Idempotent.
    func stop() {
        let caller = ObjectIdentifier(Thread.current)
        let (done, onLoop): (DispatchSemaphore?, Bool) = state.withLock { state in
            guard state.running, !state.stopRequested else { return (nil, false) }
            state.stopRequested = true
            return (state.finished, caller == state.loopThread)
        }
        if !onLoop { done?.wait() }
    }
}
