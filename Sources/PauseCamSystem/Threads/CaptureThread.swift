import Foundation

/// The life of one device's capture thread, shared by cameras and microphones: start once, a stop flag the loop
/// polls, and a stop that waits for the loop to end — except when called from the loop itself (a `deliver` that
/// stops its own device), which must not wait for itself.
///
/// It does not run the loop's body: the device's `captureLoop` does, polling `shouldStop`, and calls `end()` when
/// it leaves, which tells whether it ended by itself (an unplugged device) or because `stop()` asked.
/// Unchecked Sendable: its flags and thread handle are under `lock`.
final class CaptureThread: @unchecked Sendable {
    private let lock = NSLock()
    private var running = false
    private var stopRequested = false
    private var thread: Thread?
    private var finished: DispatchSemaphore?

    /// True from `start` until the loop calls `end()`.
    var isRunning: Bool { lock.withLock { running } }

    /// True once `stop()` was called for this run; the loop checks it between waits.
    var shouldStop: Bool { lock.withLock { stopRequested } }

    /// Runs `loop` on a new thread named `name`. The caller has checked `isRunning` (under its own lock).
    func start(name: String, _ loop: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            loop()
            done.signal()
        }
        thread.name = name
        lock.withLock {
            running = true
            stopRequested = false
            finished = done
            self.thread = thread
        }
        thread.start()
    }

    /// Called by the loop as it leaves; returns true when it ended by itself rather than because of `stop()`.
    func end() -> Bool {
        lock.withLock {
            running = false
            thread = nil
            return !stopRequested
        }
    }

    /// Asks the loop to stop and waits for it (not when called from the loop itself). Idempotent.
    func stop() {
        let (done, onLoop): (DispatchSemaphore?, Bool) = lock.withLock {
            guard running, !stopRequested else { return (nil, false) }
            stopRequested = true
            return (finished, Thread.current === thread)
        }
        if !onLoop { done?.wait() }
    }
}
