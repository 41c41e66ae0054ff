import Foundation
import PauseCamCore
import PauseCamSystem

/// Opens plugged-in devices for the `DeviceHub` with the real drivers: a V4L2 camera at the node udev reported,
/// an ALSA microphone on the sound card udev reported (when the rig's `audio` names that card).
struct SystemDeviceOpener: DeviceOpening {
    let rig: Rig
    /// Set-up facts (a camera rate the lens cannot deliver, a card that cannot be opened), told as notices.
    let notify: @Sendable (EngineNotice) -> Void
    /// Where a re-plugged microphone is found and opened (udev reads, ALSA open, retries), off the serial context.
    let microphoneOpening = DispatchQueue(label: "pausecam.microphone")

    /// How long a plugged-in card may take before its PCM opens: ALSA announces the card before its PCM devices
    /// exist, so the first tries can fail with "no such device".
    static let microphoneOpenTries = 20
    static let microphoneOpenRetryDelay = 0.1

    func openCamera(_ identity: CameraIdentity, for lens: Rig.Lens) throws -> any Camera {
        return try RigWiring.openCamera(path: identity.devicePath, lens: lens, rig: rig, notify: notify)
    }

    /// Closes the frozen camera's node before opening it again: a fresh open is what resets the driver's state
    /// for the stream (the old descriptor would otherwise stay open until the camera is released).
    func reopenCamera(_ camera: any Camera, node: String, for lens: Rig.Lens) throws -> any Camera {
        (camera as? V4L2Camera)?.close()
        return try RigWiring.openCamera(path: node, lens: lens, rig: rig, notify: notify)
    }

    func openMicrophone(on card: MicrophoneIdentity, lensNode: String?,
                        opened: @escaping @Sendable (any Microphone) -> Void) {
        microphoneOpening.async { [self] in
            if let microphone = open(card, lensNode: lensNode) { opened(microphone) }
        }
    }

    func openVoiceMicrophone(on card: MicrophoneIdentity, device: Rig.AudioInput.Device, lensNode: String?,
                             channels: Int, opened: @escaping @Sendable (any Microphone) -> Void) {
        microphoneOpening.async { [self] in
            if let microphone = open(card, lensNode: lensNode, device: device, channels: channels) { opened(microphone) }
        }
    }

    /// On `microphoneOpening`: opens `card` if it is the rig's microphone (or `device`'s, a voice card's), retrying
    /// while its PCM appears.
    private func open(_ card: MicrophoneIdentity, lensNode: String?, device: Rig.AudioInput.Device? = nil,
                      channels: Int = 2) -> (any Microphone)? {
        let device = device ?? rig.audio.device
        let lensCard = lensNode.flatMap { try? UdevSoundCards().microphone(ofCameraNode: $0) }
        guard MicrophoneCardRule.picks(card, for: device, lensCard: lensCard) else { return nil }
        let pcm = MicrophoneFinder.pcmName(opening: card, for: device)
        let warn: @Sendable (String) -> Void = { [notify] in notify(.deviceRemark($0)) }
        var failure: (any Error)?
        for attempt in 0..<Self.microphoneOpenTries {
            if attempt > 0 { Thread.sleep(forTimeInterval: Self.microphoneOpenRetryDelay) }
            do {
                return try ALSAMicrophone(pcm: pcm, channels: channels, warn: warn)
            } catch {
                failure = error
            }
        }
        notify(.pluggedMicrophoneNotOpened(card: card.card, name: card.name,
                                           reason: failure.map { "\($0)" } ?? "unknown error"))
        return nil
    }
}
