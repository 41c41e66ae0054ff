import CUdev
import Foundation
import PauseCamCore

/// Hot-plug of cameras through udev: a monitor on the netlink socket filtered to `video4linux`, polled on the
/// watcher's own thread together with a wake-up pipe so `stop()` returns promptly. Each add/change/remove of a
/// capture node becomes a `DeviceEvent` (see `UdevEventInterpreter`) delivered to the handler from that thread;
/// the composition root hops it onto the session's serial context.
public final class UdevWatcher: DeviceWatcher, @unchecked Sendable {
    private let lock = NSLock()
    private var interpreter = UdevEventInterpreter()
    private var thread: Thread?
    private var wakeWrite: Int32 = -1
    private var finished: DispatchSemaphore?

    public init() {}

    deinit { stop() }

    /// The capture cameras present now; also remembered, so their later removal reports the same identity.
    public func enumerate() throws -> [CameraIdentity] {
        let cameras = try UdevDeviceManager().cameras()
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
        let manager = try UdevDeviceManager()
        let monitor = try UdevMonitor(context: UdevContext(), subsystem: "video4linux")
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw UdevError(call: "pipe", code: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wakeWrite = fds[1]
        let wakeRead = fds[0]
        let done = DispatchSemaphore(value: 0)
        finished = done
        let thread = Thread { [self] in
            watch(monitor: monitor, manager: manager, wakeRead: wakeRead, handler: handler)
            close(wakeRead)
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
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        close(wakeWrite)
        wakeWrite = -1
        thread = nil
        let done = finished
        lock.unlock()
        if !onWatcherThread { done?.wait() }
    }

    private func watch(monitor: UdevMonitor, manager: UdevDeviceManager, wakeRead: Int32,
                       handler: @Sendable (DeviceEvent) -> Void) {
        var fds = [pollfd(fd: monitor.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            while let device = monitor.receive() {
                let action = device.action ?? "change"
                let identity = action == "remove" ? manager.identityOfRemoved(device)
                                                  : manager.identity(of: device, openNode: true)
                guard let node = device.deviceNode ?? device.property("DEVNAME") else { continue }
                lock.lock()
                let events = interpreter.handle(action: action, devicePath: node, identity: identity)
                lock.unlock()
                events.forEach(handler)
            }
        }
    }
}
