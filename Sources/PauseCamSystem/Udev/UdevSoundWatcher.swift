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
/// Unchecked Sendable: the interpreter is under `lock`; the udev objects live on the poll thread.
public final class UdevSoundWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var interpreter = SoundCardEventInterpreter()
    private let pollThread = UdevPollThread(name: "pausecam.udev-sound")
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
    /// cannot be opened.
    public func start(_ handler: @escaping @Sendable (SoundCardEvent) -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !pollThread.isRunning else { return }
        let monitor = try UdevMonitor(context: UdevContext(), subsystem: "sound")
        try pollThread.start(polling: monitor.fileDescriptor) { [self] in read(monitor, handler: handler) }
    }

    /// Stops the watcher thread and waits for it to end. Idempotent.
    public func stop() { pollThread.stop() }

    /// Everything the monitor has queued, on the watcher thread; after lost events, the cards enumerated again.
    private func read(_ monitor: UdevMonitor, handler: @Sendable (SoundCardEvent) -> Void) {
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
