import Foundation
import PauseCamCore
import PauseCamSystem

/// The microphone's hot-plug in the composition root: the sound card watcher, which card is the rig's microphone,
/// and opening a re-plugged one off the serial context before handing it to the controller there.
extension RigWiring {
    /// Watches sound cards, so a microphone unplugged mid-clip comes back when plugged in again (and one missing at
    /// the start is taken when it arrives).
    func startSoundWatcher() {
        guard watchesSoundCards else { return }
        do {
            let watcher = try UdevSoundWatcher()
            // Enumerating first: a card already here is not taken for a new one.
            _ = try watcher.enumerate()
            try watcher.start { [weak self] event in self?.handle(event) }
            soundWatcher = watcher
        } catch {
            notify("warning: a microphone plugged in later will not be seen: \(error)")
        }
    }

    /// A sound card appeared or disappeared (on the sound watcher's thread). Its removal stops the microphone
    /// recording from it; a card the rig's `audio` names, plugged in while the rig has no working microphone, is
    /// opened off the serial context and handed to the controller there.
    func handle(_ event: SoundCardEvent) {
        switch event {
        case .removed(let card):
            serialContext.schedule(at: .zero) { [self] in
                guard microphoneCard?.card == card.card else { return }
                microphoneCard = nil
                controller.detachMicrophone(reason: "sound card \(card.card) (\(card.name)) was unplugged")
            }
        case .added(let card):
            serialContext.schedule(at: .zero) { [self] in
                guard controller.microphone == nil || controller.microphoneGone else { return }
                let lensNode: String? = if case .ofLens(let lens) = rig.audio.device { lensNodes[lens] } else { nil }
                microphoneOpening.async { [self] in openPluggedMicrophone(card, lensNode: lensNode) }
            }
        }
    }

    /// How long a plugged-in card may take before its PCM opens: ALSA announces the card before its PCM devices
    /// exist, so the first tries can fail with "no such device".
    static let microphoneOpenTries = 20
    static let microphoneOpenRetryDelay = 0.1

    /// On `microphoneOpening`: opens `card` if it is the rig's microphone, retrying while its PCM appears, and hands
    /// it to the controller on the serial context. A microphone the controller refuses is dropped (and closed).
    private func openPluggedMicrophone(_ card: MicrophoneIdentity, lensNode: String?) {
        let lensCard = lensNode.flatMap { try? UdevSoundCards().microphone(ofCameraNode: $0) }
        guard MicrophoneCardRule.picks(card, for: rig.audio.device, lensCard: lensCard) else { return }
        let pcm = MicrophoneFinder.pcmName(opening: card, for: rig.audio.device)
        let warn: @Sendable (String) -> Void = { [notify] in notify("warning: \($0)") }
        var failure: (any Error)?
        for attempt in 0..<Self.microphoneOpenTries {
            if attempt > 0 { Thread.sleep(forTimeInterval: Self.microphoneOpenRetryDelay) }
            do {
                let microphone = try ALSAMicrophone(pcm: pcm, warn: warn)
                serialContext.schedule(at: .zero) { [self] in
                    guard !devicesStopped else { return }
                    if case .success = controller.attachMicrophone(microphone) { microphoneCard = card }
                }
                return
            } catch {
                failure = error
            }
        }
        notify("warning: the microphone on sound card \(card.card) (\(card.name)) was plugged in but cannot be opened: "
               + "\(failure.map { "\($0)" } ?? "unknown error"); recording goes on without sound")
    }
}
