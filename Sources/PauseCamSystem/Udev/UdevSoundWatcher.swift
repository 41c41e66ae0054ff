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
public final class UdevSoundWatcher: Sendable {
    /// Seeded by `enumerate` on the caller's thread, then fed by the poll thread.
    private let interpreter = Guarded(SoundCardEventInterpreter())
    /// Makes `start` one step: a second caller waits and then finds the thread running.
    private let starting = Guarded(())
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
        interpreter.withLock { $0.seed(present) }
        return present
    }

    /// Opens the monitor and starts the watcher thread; idempotent. Throws `UdevError` when the netlink socket
    /// cannot be opened.
    public func start(_ handler: @escaping @Sendable (SoundCardEvent) -> Void) throws {
        try starting.withLock { _ in
            guard !pollThread.isRunning else { return }
            let monitor = try UdevMonitor(context: UdevContext(), subsystem: "sound")
            try pollThread.start(polling: monitor.fileDescriptor) { [self] in read(monitor, handler: handler) }
        }
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
                let action = device.action ?? "change", systemName = device.systemName
                events = interpreter.withLock {
                    $0.handle(action: action, systemName: systemName, identity: identity)
                }
            case .overflow: lostEvents = true
            case .drained, .failed: break reading
            }
            events.forEach(handler)
        }
        if lostEvents, let present = try? cards.microphones() {
            let events = interpreter.withLock { $0.resynchronize(with: present) }
            events.forEach(handler)
        }
    }
}
