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

    /// The PCM name for `device`; throws with what was missing and what to do.
    static func pcmName(for device: Rig.AudioInput.Device, lensNodes: [String: String]) throws -> String {
        switch device {
        case .alsa(let name):
            return name
        case .matched(let rule):
            return try UdevSoundCards().microphone(matching: rule).pcmName
        case .ofLens(let lens):
            guard let node = lensNodes[lens] else {
                throw DeviceLookupError("lens \(lens) has no camera plugged in, so its microphone cannot be found")
            }
            return try UdevSoundCards().microphone(ofCameraNode: node).pcmName
        case .virtual, .none:
            throw DeviceLookupError("not an ALSA microphone")
        }
    }
}
