import PauseCamCore

/// The words tab completion offers: command words first, then, after a command, the names that command takes on
/// this rig (lens roles, zoom and exposure presets, script names, voice names then what to change in a voice). The line
/// editor asks with the line typed so far and replaces the last, partial word with the one match, or lists them all.
public struct ShellCompleter: Sendable {
    public var lenses: [String]
    public var zoomPresets: [String]
    public var exposurePresets: [String]
    public var scripts: [String]
    /// The voices of a rig whose `audio:` is a list, in rig order (empty for one microphone).
    public var voices: [String]

    public init(lenses: [String], zoomPresets: [String], exposurePresets: [String], scripts: [String],
                voices: [String] = []) {
        self.lenses = lenses
        self.zoomPresets = zoomPresets
        self.exposurePresets = exposurePresets
        self.scripts = scripts
        self.voices = voices
    }

    /// The names of `rig`.
    public init(rig: Rig) {
        let names = rig.names
        self.init(lenses: names.lenses, zoomPresets: names.zoomPresets, exposurePresets: names.exposurePresets,
                  scripts: names.scripts, voices: rig.audio.voices.map(\.name))
    }

    /// Whole words that could replace the partial last word of `line` (the text up to the cursor).
    public func complete(_ line: String) -> [String] {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        let endsWithBlank = line.last?.isWhitespace ?? false
        let partial = endsWithBlank ? "" : (words.last ?? "")
        let finished = endsWithBlank ? words : Array(words.dropLast())
        let candidates: [String]
        switch finished.count {
        case 0:
            candidates = Command.words
        case 1:
            candidates = arguments(of: finished[0].lowercased())
        case 2 where finished[0].lowercased() == "voice" && voices.contains(finished[1]):
            candidates = Self.voiceChanges
        default:
            candidates = []
        }
        return candidates.filter { $0.hasPrefix(partial) }
    }

    /// What `voice NAME` changes (`gain` then takes a level such as +3dB, which is not completed).
    static let voiceChanges = ["mute", "unmute", "gain"]

    /// The names `command` takes as its argument.
    func arguments(of command: String) -> [String] {
        switch command {
        case "lens": return lenses + ["next"]
        case "zoom": return zoomPresets
        case "exposure": return exposurePresets + ["auto"]
        case "focus": return ["auto"]
        case "run": return scripts
        case "last": return ["play"]
        case "follow", "live": return ["on", "off"]
        case "voice": return voices
        case "help": return Command.words
        default: return []
        }
    }
}
