import PauseCamCore

/// The shell's hotkey mode's keys: a default map for a person behind the camera — space toggles (record, pause,
/// resume), `m` marks (a numbered marker), `c` starts a chapter, `r` takes the scene again, `1`…`9` pick the rig's lenses and then its
/// zoom presets in rig order — with the rig's `keys:` laid over it. `q` always leaves the mode. Each key carries
/// out a command line of the shell's one grammar, so a key does exactly what typing its line does.
public struct HotkeyMap: Sendable, Equatable {
    /// The bindings in the order the map is shown: the defaults, then keys only the rig has.
    public private(set) var bindings: [Rig.Hotkey]

    /// The key that leaves the mode.
    public static let leaveKey: Character = "q"

    public init(rig: Rig) {
        var defaults = [Rig.Hotkey(key: " ", line: "toggle"),
                        Rig.Hotkey(key: "m", line: "mark"),
                        Rig.Hotkey(key: "c", line: "chapter"),
                        Rig.Hotkey(key: "r", line: "retake")]
        let choices = rig.lenses.map { "lens \($0.name)" } + rig.zoomPresets.map { "zoom \($0.name)" }
        for (index, line) in choices.prefix(9).enumerated() {
            defaults.append(Rig.Hotkey(key: Character(String(index + 1)), line: line))
        }
        bindings = defaults.map { binding in rig.keys.last { $0.key == binding.key } ?? binding }
        let given = Set(defaults.map(\.key))
        bindings += rig.keys.filter { !given.contains($0.key) }
    }

    /// The command line of `key`, or `nil` when it has none.
    public func line(for key: Character) -> String? {
        bindings.last { $0.key == key }?.line
    }

    /// How a key is written: `space` for the space bar, else itself.
    public static func name(of key: Character) -> String { key == " " ? "space" : String(key) }

    /// The map as shown when the mode begins: one key per line, then how to leave.
    public var description: String {
        let width = bindings.map { Self.name(of: $0.key).count }.max() ?? 1
        let lines = bindings.map { "  " + Self.name(of: $0.key).padding(toLength: width, withPad: " ", startingAt: 0)
            + "  " + $0.line }
        return (["keys mode: a key acts at once, without Enter"] + lines
                + ["  " + String(Self.leaveKey).padding(toLength: width, withPad: " ", startingAt: 0)
                   + "  leave the keys mode (Ctrl-C too)"]).joined(separator: "\n")
    }
}
