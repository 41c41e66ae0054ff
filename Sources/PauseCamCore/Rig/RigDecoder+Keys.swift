/// `keys:`: the shell's hotkeys, a mapping from one key to a command line of the shell's grammar
/// (`x: mark good take`, `space: toggle`), checked with the same parser the shell uses.
extension RigDecoder {
    /// The key that leaves the hotkey mode; it cannot be given another meaning.
    static let leaveKey: Character = "q"

    mutating func hotkeys(_ node: YAMLNode, _ path: KeyPath, parser: CommandParser) -> [Rig.Hotkey] {
        guard let entries = namedEntries(node, path, what: "keys (one character, or space) to commands") else {
            return []
        }
        var keys: [Rig.Hotkey] = []
        for (written, keyNode, value) in entries {
            let kp = path.child(written)
            let key: Character
            if written == "space" {
                key = " "
            } else if written.count == 1, let only = written.first, !only.isWhitespace,
                      only.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) {
                key = only
            } else {
                report("a key is one character (or space), not \"\(written)\"", at: keyNode.mark, path: path)
                continue
            }
            if key == Self.leaveKey {
                report("\"q\" leaves the keys mode and cannot be given a command; choose another key",
                       at: keyNode.mark, path: path)
                continue
            }
            guard let line = text(value, kp) else { continue }
            switch parser.parse(line) {
            case .failure(let failure):
                report(failure.message, at: value.mark, path: kp)
            case .success(let command):
                if command == .keys || command == .quit {
                    report("\"\(command.word)\" cannot be a hotkey (q leaves the keys mode)", at: value.mark, path: kp)
                } else if let reason = Self.keepsTheKeysWaiting(command) {
                    report("\"\(line)\" cannot be a hotkey: a key acts at once, and \(reason), so the keys mode "
                           + "would not hear q until it ended", at: value.mark, path: kp)
                } else {
                    keys.append(Rig.Hotkey(key: key, line: line))
                }
            }
        }
        return keys
    }

    /// Why `command` does not return at once (the keys mode reads no key while a command runs), or `nil` when it
    /// does: every command but these acts and returns.
    static func keepsTheKeysWaiting(_ command: Command) -> String? {
        switch command {
        case .wait: return "`wait` lets time pass"
        case .run: return "`run` goes on until its script ends"
        case .last: return "`last` waits for the clips being saved"
        default: return nil
        }
    }
}
