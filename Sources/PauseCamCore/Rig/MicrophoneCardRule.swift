import Foundation

/// Which sound card is the rig's microphone, decided again when a card is plugged in mid-run: the card a `match:`
/// rule picks, the card on the USB device of a lens's camera (`lens:`), or the card an ALSA PCM name refers to
/// (`device: "hw:1,0"`, `"plughw:CARD=C920"`). A PCM name that names no card (`default`, a `.asoundrc` alias)
/// picks none: such a microphone is not re-opened when plugged back.
public enum MicrophoneCardRule {
    /// How a PCM name refers to a card: by number (`hw:1`) or by the card's id (`hw:CARD=C920`).
    public enum CardReference: Sendable, Equatable {
        case number(Int)
        case id(String)
    }

    /// The card `pcm` refers to, from its first argument or its `CARD=` argument; `nil` when it names none.
    public static func cardReference(inPCM pcm: String) -> CardReference? {
        guard let colon = pcm.firstIndex(of: ":") else { return nil }
        let arguments = pcm[pcm.index(after: colon)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let named = arguments.first { $0.uppercased().hasPrefix("CARD=") }.map { String($0.dropFirst(5)) }
        guard var value = named ?? arguments.first.flatMap({ $0.contains("=") ? nil : String($0) }) else { return nil }
        value = value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        guard !value.isEmpty else { return nil }
        return Int(value).map(CardReference.number) ?? .id(value)
    }

    /// True when `card` is the microphone `device` names. `lensCard` is the card found on the USB device of the
    /// camera serving the lens of a `lens:` device (`nil` when that lens has no camera, or its camera no card).
    public static func picks(_ card: MicrophoneIdentity, for device: Rig.AudioInput.Device,
                             lensCard: MicrophoneIdentity?) -> Bool {
        switch device {
        case .matched(let rule):
            return card.matches(rule)
        case .ofLens:
            return lensCard?.card == card.card
        case .alsa(let pcm):
            switch cardReference(inPCM: pcm) {
            case .number(let number): return number == card.card
            case .id(let id): return id.lowercased() == card.name.lowercased()
            case nil: return false
            }
        case .virtual, .none:
            return false
        }
    }
}
