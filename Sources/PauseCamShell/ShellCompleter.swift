import PauseCamCore

/// The words tab completion offers: command words first, then, after a command, the names that command takes on
/// this rig (lens roles, zoom and exposure presets, script names). The line editor asks with the line typed so far
/// and replaces the last, partial word with the one match, or lists them all.
public struct ShellCompleter: Sendable {
    public var lenses: [String]
    public var zoomPresets: [String]
    public var exposurePresets: [String]
    public var scripts: [String]

    public init(lenses: [String], zoomPresets: [String], exposurePresets: [String], scripts: [String]) {
        self.lenses = lenses
        self.zoomPresets = zoomPresets
        self.exposurePresets = exposurePresets
        self.scripts = scripts
    }

    /// The names of `rig`.
    public init(rig: Rig) {
        let names = rig.names
        self.init(lenses: names.lenses, zoomPresets: names.zoomPresets, exposurePresets: names.exposurePresets,
                  scripts: names.scripts)
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
        default:
            candidates = []
        }
        return candidates.filter { $0.hasPrefix(partial) }
    }

    /// The names `command` takes as its argument.
    func arguments(of command: String) -> [String] {
        switch command {
        case "lens": return lenses + ["next"]
        case "zoom": return zoomPresets
        case "exposure": return exposurePresets + ["auto"]
        case "focus": return ["auto"]
        case "run": return scripts
        case "last": return ["play"]
        case "help": return Command.words
        default: return []
        }
    }
}
