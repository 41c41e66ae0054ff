import CUdev
import Foundation
import PauseCamCore

/// Hot-plug of sound cards through udev: a monitor on the `sound` subsystem, polled on its own thread together with
/// a wake-up pipe so `stop()` returns promptly, each card's add/change/remove turned into a `SoundCardEvent` (see
/// `SoundCardEventInterpreter`) and delivered to the handler from that thread. Separate from `UdevWatcher` so the
/// camera path is untouched, and a rig without a real microphone opens no second socket.
///
/// After lost events (`ENOBUFS`) the cards are enumerated again and the difference reported, as the camera
/// watcher does.
public final class UdevSoundWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var interpreter = SoundCardEventInterpreter()
    private var thread: Thread?
    /// The write end of the wake-up pipe while the thread runs; the thread owns the read end.
    private var wakeWrite: FileDescriptor?
    private var finished: DispatchSemaphore?
    private let cards: UdevSoundCards

    /// A watcher on the system's udev; throws `UdevError` when udev cannot be reached.
    public init() throws {
        cards = try UdevSoundCards()
    }

    deinit { stop() }

    /// The sound cards present now; also remembered, so their removal reports the same identity and a `change`
    /// of one of them is not taken for a new card.
    public func enumerate() throws -> [MicrophoneIdentity] {
        let present = try cards.microphones()
        lock.lock()
        interpreter.seed(present)
        lock.unlock()
        return present
    }

    /// Opens the monitor and starts the watcher thread; idempotent. Throws `UdevError` when the netlink socket
    /// cannot be opened. The corresponding C function for the wake-up pipe is `pipe`.
    public func start(_ handler: @escaping @Sendable (SoundCardEvent) -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        guard thread == nil else { return }
        let monitor = try UdevMonitor(context: UdevContext(), subsystem: "sound")
        let pipe: (read: FileDescriptor, write: FileDescriptor)
        do { pipe = try FileDescriptor.pipe(nonBlocking: false) } catch {
            throw UdevError(call: "pipe", code: error.rawValue)
        }
        wakeWrite = pipe.write
        let wakeRead = pipe.read
        let done = DispatchSemaphore(value: 0)
        finished = done
        let thread = Thread { [self] in
            watch(monitor: monitor, wakeRead: wakeRead, handler: handler)
            try? wakeRead.close()
            done.signal()
        }
        thread.name = "pausecam.udev-sound"
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

    private func watch(monitor: UdevMonitor, wakeRead: FileDescriptor, handler: @Sendable (SoundCardEvent) -> Void) {
        while true {
            guard case .success(let ready) = Poll.wait([monitor.fileDescriptor, wakeRead.rawValue], timeout: -1)
            else { return }
            if ready[1] != 0 { return }
            if ready[0] & Int16(POLLNVAL) != 0 { return }
            guard ready[0] & Int16(POLLIN | POLLERR) != 0 else { continue }
            var lostEvents = false
            reading: while true {
                var events: [SoundCardEvent] = []
                switch monitor.receive() {
                case .device(let device):
                    let identity = cards.identity(of: device)
                    lock.lock()
                    events = interpreter.handle(action: device.action ?? "change", systemName: device.systemName,
                                                identity: identity)
                    lock.unlock()
                case .overflow: lostEvents = true
                case .drained, .failed: break reading
                }
                events.forEach(handler)
            }
            if lostEvents, let present = try? cards.microphones() {
                lock.lock()
                let events = interpreter.resynchronize(with: present)
                lock.unlock()
                events.forEach(handler)
            }
        }
    }
}
