import PauseCamCore
import PauseCamSystem

/// Turns the rig's `audio:` device into the ALSA PCM to open: a PCM name as written, or the card that udev finds
/// for a `match:` rule or for a lens's camera (`lens: tele`, the camera's node as wired in `lensNodes`).
enum MicrophoneFinder {
    /// How the rig names its microphone, for messages.
    static func describe(_ device: Rig.AudioInput.Device) -> String {
        switch device {
        case .alsa(let name): return "\"\(name)\""
        case .matched(let rule): return "matching \(rule)"
        case .ofLens(let lens): return "of lens \(lens)"
        case .virtual: return "virtual"
        case .none: return "none"
        }
    }

    /// The PCM name for `device`, and the sound card it opens when udev knows it (whose `remove` then stops the
    /// microphone); throws with what was missing and what to do.
    static func find(_ device: Rig.AudioInput.Device,
                     lensNodes: [String: String]) throws -> (pcm: String, card: MicrophoneIdentity?) {
        switch device {
        case .alsa(let name):
            let card = MicrophoneCardRule.cardReference(inPCM: name) == nil ? nil
                : (try? UdevSoundCards().microphones())?.first { MicrophoneCardRule.picks($0, for: device, lensCard: nil) }
            return (name, card)
        case .matched(let rule):
            let card = try UdevSoundCards().microphone(matching: rule)
            return (card.pcmName, card)
        case .ofLens(let lens):
            guard let node = lensNodes[lens] else {
                throw DeviceLookupError("lens \(lens) has no camera plugged in, so its microphone cannot be found")
            }
            let card = try UdevSoundCards().microphone(ofCameraNode: node)
            return (card.pcmName, card)
        case .virtual, .none:
            throw DeviceLookupError("not an ALSA microphone")
        }
    }

    /// The PCM that opens `card` for `device`: the rig's own PCM name when it gave one, else the card's.
    static func pcmName(opening card: MicrophoneIdentity, for device: Rig.AudioInput.Device) -> String {
        if case .alsa(let name) = device { return name }
        return card.pcmName
    }
}
