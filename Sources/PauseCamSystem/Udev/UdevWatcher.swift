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
public final class UdevWatcher: DeviceWatcher, Sendable {
    /// Seeded by `enumerate` on the caller's thread, then fed by the poll thread.
    private let interpreter = Guarded(UdevEventInterpreter())
    /// Makes `start` one step: a second caller waits and then finds the thread running.
    private let starting = Guarded(())
    private let pollThread = UdevPollThread(name: "pausecam.udev")
    private let makeSource: @Sendable () throws -> UdevEventSource
    private let enumerateCameras: @Sendable () throws -> [CameraIdentity]

    /// A watcher on the system's udev.
    public convenience init() {
        self.init(makeSource: { try UdevMonitorSource() }, enumerate: { try UdevDeviceManager().cameras() })
    }

    /// A watcher on any event source: tests script one to inject lost events.
    init(makeSource: @escaping @Sendable () throws -> UdevEventSource,
         enumerate: @escaping @Sendable () throws -> [CameraIdentity]) {
        self.makeSource = makeSource
        enumerateCameras = enumerate
    }

    deinit { stop() }

    /// The capture cameras present now; also remembered, so their later removal reports the same identity.
    public func enumerate() throws -> [CameraIdentity] {
        let cameras = try enumerateCameras()
        interpreter.withLock { $0.seed(cameras) }
        return cameras
    }

    /// Opens the monitor and starts the watcher thread; idempotent. Throws `UdevError` when the netlink socket
    /// cannot be opened (no udev in a container, say).
    public func start(_ handler: @escaping @Sendable (DeviceEvent) -> Void) throws {
        try starting.withLock { _ in
            guard !pollThread.isRunning else { return }
            let source = try makeSource()
            try pollThread.start(polling: source.fileDescriptor) { [self] in read(source, handler: handler) }
        }
    }

    /// Stops the watcher thread and waits for it to end. Idempotent.
    public func stop() { pollThread.stop() }

    /// Everything the monitor has queued, on the watcher thread; after lost events, the cameras enumerated again.
    private func read(_ source: UdevEventSource, handler: @Sendable (DeviceEvent) -> Void) {
        var lostEvents = false
        reading: while true {
            var events: [DeviceEvent] = []
            switch source.next() {
            case .action(let action, let node, let identity):
                events = interpreter.withLock { $0.handle(action: action, devicePath: node, identity: identity) }
            case .ignored: break
            case .overflow: lostEvents = true
            case .drained, .failed: break reading
            }
            events.forEach(handler)
        }
        // Re-enumerate only once the queue is drained: events still queued behind the overflow are older
        // than the enumeration, and applying them after it would undo what it found.
        if lostEvents, let cameras = try? source.cameras() {
            let events = interpreter.withLock { $0.resynchronize(with: cameras) }
            events.forEach(handler)
        }
    }
}
