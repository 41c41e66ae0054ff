import CUdev
import Foundation
import PauseCamCore

/// The thread behind a udev watcher: it polls one monitor's netlink socket together with a wake-up pipe, so
/// `stop()` returns promptly, and calls `readable` whenever the socket has events or an error (an overflow, the
/// socket's pending `ENOBUFS`, shows as `POLLERR` with or without `POLLIN`). The camera and the sound-card watchers
/// share it; what they read and how they interpret it stays theirs.
final class UdevPollThread: Sendable {
    /// One run of the thread: who it is (to tell a stop from a handler), how to wake it and how to wait for it.
    private struct Run {
        let thread: ObjectIdentifier
        /// The write end of the wake-up pipe; the thread owns the read end.
        let wakeWrite: FileDescriptor
        let finished: DispatchSemaphore
    }

    private let name: String
    /// The run in progress, `nil` before `start` and after `stop`.
    private let run = Guarded<Run?>(nil)

    /// A thread named `name` (seen in debuggers and `top -H`), not started.
    init(name: String) { self.name = name }

    deinit { stop() }

    /// Whether the thread runs.
    var isRunning: Bool { run.withLock { $0 != nil } }

    /// Starts polling `descriptor` on the thread, calling `readable` there; does nothing while it already runs.
    /// The thread ends at `stop()`, or when the descriptor is closed under it (`POLLNVAL`). The corresponding C
    /// function for the wake-up pipe is `pipe`.
    func start(polling descriptor: Int32, readable: @escaping @Sendable () -> Void) throws {
        try run.withLock { (run: inout Run?) throws(UdevError) in
            guard run == nil else { return }
            let pipe: (read: FileDescriptor, write: FileDescriptor)
            do throws(Errno) { pipe = try FileDescriptor.pipe(nonBlocking: false) } catch {
                throw UdevError(call: "pipe", code: error.rawValue)
            }
            let wakeRead = pipe.read
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                Self.poll(descriptor, wakeRead: wakeRead, readable: readable)
                try? wakeRead.close()
                done.signal()
            }
            thread.name = name
            // Foundation keeps a running thread's object alive, so its identity is unique while the run lasts.
            run = Run(thread: ObjectIdentifier(thread), wakeWrite: pipe.write, finished: done)
            thread.start()
        }
    }

    /// Wakes the thread through the pipe and waits for it to end (not when called from the thread itself, from a
    /// handler). Idempotent.
    func stop() {
        guard let ended = run.withLock({ $0.take() }) else { return }
        _ = withUnsafeBytes(of: UInt8(1)) { try? ended.wakeWrite.write($0) }
        try? ended.wakeWrite.close()
        if ObjectIdentifier(Thread.current) != ended.thread { ended.finished.wait() }
    }

    private static func poll(_ descriptor: Int32, wakeRead: FileDescriptor, readable: () -> Void) {
        while true {
            guard case .success(let ready) = Poll.wait([descriptor, wakeRead.rawValue], timeout: -1) else { return }
            if ready[1] != 0 { return }
            if ready[0] & Int16(POLLNVAL) != 0 { return }
            guard ready[0] & Int16(POLLIN | POLLERR) != 0 else { continue }
            readable()
        }
    }
}
