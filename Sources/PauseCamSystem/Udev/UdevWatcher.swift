import CUdev
import Foundation
import PauseCamCore

/// Hot-plug of cameras through udev: a monitor on the netlink socket filtered to `video4linux`, polled on the
/// watcher's own thread together with a wake-up pipe so `stop()` returns promptly. Each add/change/remove of a
/// capture node becomes a `DeviceEvent` (see `UdevEventInterpreter`) delivered to the handler from that thread;
/// the composition root hops it onto the session's serial context.
///
/// When the kernel drops events because the monitor's buffer overflowed (`ENOBUFS`), the watcher drains what is
/// still queued, enumerates the cameras again and reports the difference, so no plug or unplug is lost.
public final class UdevWatcher: DeviceWatcher, @unchecked Sendable {
    private let lock = NSLock()
    private var interpreter = UdevEventInterpreter()
    private var thread: Thread?
    /// The write end of the wake-up pipe while the thread runs; the thread owns the read end.
    private var wakeWrite: FileDescriptor?
    private var finished: DispatchSemaphore?
    private let makeSource: () throws -> UdevEventSource
    private let enumerateCameras: () throws -> [CameraIdentity]

    /// A watcher on the system's udev.
    public convenience init() {
        self.init(makeSource: { try UdevMonitorSource() }, enumerate: { try UdevDeviceManager().cameras() })
    }

    /// A watcher on any event source: tests script one to inject lost events.
    init(makeSource: @escaping () throws -> UdevEventSource, enumerate: @escaping () throws -> [CameraIdentity]) {
        self.makeSource = makeSource
        enumerateCameras = enumerate
    }

    deinit { stop() }

    /// The capture cameras present now; also remembered, so their later removal reports the same identity.
    public func enumerate() throws -> [CameraIdentity] {
        let cameras = try enumerateCameras()
        lock.lock()
        interpreter.seed(cameras)
        lock.unlock()
        return cameras
    }

    /// Opens the monitor and starts the watcher thread. Throws `UdevError` when the netlink socket cannot be
    /// opened (no udev in a container, say). The corresponding C function for the wake-up pipe is `pipe`.
    public func start(_ handler: @escaping @Sendable (DeviceEvent) -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        guard thread == nil else { return }
        let source = try makeSource()
        let pipe: (read: FileDescriptor, write: FileDescriptor)
        do { pipe = try FileDescriptor.pipe(nonBlocking: false) } catch {
            throw UdevError(call: "pipe", code: error.rawValue)
        }
        wakeWrite = pipe.write
        let wakeRead = pipe.read
        let done = DispatchSemaphore(value: 0)
        finished = done
        let thread = Thread { [self] in
            watch(source: source, wakeRead: wakeRead, handler: handler)
            try? wakeRead.close()
            done.signal()
        }
        thread.name = "pausecam.udev"
        self.thread = thread
        thread.start()
    }

    /// Wakes the watcher thread through the pipe and waits for it to end. Idempotent.
    public func stop() {
        lock.lock()
        guard thread != nil else { lock.unlock(); return }
        let onWatcherThread = Thread.current === thread
        _ = withUnsafeBytes(of: UInt8(1)) { try? wakeWrite?.write($0) }
        try? wakeWrite?.close()
        wakeWrite = nil
        thread = nil
        let done = finished
        lock.unlock()
        if !onWatcherThread { done?.wait() }
    }

    private func watch(source: UdevEventSource, wakeRead: FileDescriptor, handler: @Sendable (DeviceEvent) -> Void) {
        while true {
            guard case .success(let ready) = Poll.wait([source.fileDescriptor, wakeRead.rawValue], timeout: -1)
            else { return }
            if ready[1] != 0 { return }
            if ready[0] & Int16(POLLNVAL) != 0 { return }
            // An overflow shows as POLLERR (the socket's pending ENOBUFS), with or without POLLIN.
            guard ready[0] & Int16(POLLIN | POLLERR) != 0 else { continue }
            var lostEvents = false
            reading: while true {
                var events: [DeviceEvent] = []
                switch source.next() {
                case .action(let action, let node, let identity):
                    lock.lock()
                    events = interpreter.handle(action: action, devicePath: node, identity: identity)
                    lock.unlock()
                case .ignored: break
                case .overflow: lostEvents = true
                case .drained, .failed: break reading
                }
                events.forEach(handler)
            }
            // Re-enumerate only once the queue is drained: events still queued behind the overflow are older
            // than the enumeration, and applying them after it would undo what it found.
            if lostEvents, let cameras = try? source.cameras() {
                lock.lock()
                let events = interpreter.resynchronize(with: cameras)
                lock.unlock()
                events.forEach(handler)
            }
        }
    }
}
