import CUdev
import Foundation

/// The thread behind a udev watcher: it polls one monitor's netlink socket together with a wake-up pipe, so
/// `stop()` returns promptly, and calls `readable` whenever the socket has events or an error (an overflow, the
/// socket's pending `ENOBUFS`, shows as `POLLERR` with or without `POLLIN`). The camera and the sound-card watchers
/// share it; what they read and how they interpret it stays theirs.
/// Unchecked Sendable: the thread, wake pipe and semaphore are under `lock`.
final class UdevPollThread: @unchecked Sendable {
    private let name: String
    private let lock = NSLock()
    private var thread: Thread?
    /// The write end of the wake-up pipe while the thread runs; the thread owns the read end.
    private var wakeWrite: FileDescriptor?
    private var finished: DispatchSemaphore?

    /// A thread named `name` (seen in debuggers and `top -H`), not started.
    init(name: String) { self.name = name }

    deinit { stop() }

    /// Whether the thread runs.
    var isRunning: Bool { lock.withLock { thread != nil } }

    /// Starts polling `descriptor` on the thread, calling `readable` there; does nothing while it already runs.
    /// The thread ends at `stop()`, or when the descriptor is closed under it (`POLLNVAL`). The corresponding C
    /// function for the wake-up pipe is `pipe`.
    func start(polling descriptor: Int32, readable: @escaping @Sendable () -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        guard thread == nil else { return }
        let pipe: (read: FileDescriptor, write: FileDescriptor)
        do { pipe = try FileDescriptor.pipe(nonBlocking: false) } catch {
            throw UdevError(call: "pipe", code: error.rawValue)
        }
        wakeWrite = pipe.write
        let wakeRead = pipe.read
        let done = DispatchSemaphore(value: 0)
        finished = done
        let thread = Thread {
            Self.poll(descriptor, wakeRead: wakeRead, readable: readable)
            try? wakeRead.close()
            done.signal()
        }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Wakes the thread through the pipe and waits for it to end (not when called from the thread itself, from a
    /// handler). Idempotent.
    func stop() {
        lock.lock()
        guard thread != nil else { lock.unlock(); return }
        let onPollThread = Thread.current === thread
        _ = withUnsafeBytes(of: UInt8(1)) { try? wakeWrite?.write($0) }
        try? wakeWrite?.close()
        wakeWrite = nil
        thread = nil
        let done = finished
        lock.unlock()
        if !onPollThread { done?.wait() }
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
