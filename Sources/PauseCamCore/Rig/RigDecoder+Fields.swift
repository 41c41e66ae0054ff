/// The mappings of a rig file: a section's declared keys (a `RigKey` enum) checked against what the file wrote,
/// with unknown, duplicate and missing keys reported; and the mappings of user-chosen names (lenses, presets,
/// scripts).
extension RigDecoder {
    /// A node's keys and values; built by `fields`, which has already reported duplicates and unknown keys.
    struct Fields<Key: RigKey> {
        var pairs: [(key: Key, keyNode: YAMLNode, value: YAMLNode)]
        subscript(key: Key) -> YAMLNode? { pairs.first { $0.key == key }?.value }
        func keyNode(_ key: Key) -> YAMLNode? { pairs.first { $0.key == key }?.keyNode }
    }

    /// The mapping's keys that are cases of `Key` (first occurrence of each); reports a non-mapping, unknown keys
    /// (with the nearest case as a suggestion), duplicate keys, and missing `required` keys. `nil` when the node
    /// is not a mapping.
    mutating func fields<Key: RigKey>(_ node: YAMLNode, _ path: KeyPath, _ keys: Key.Type,
                                      required: [Key] = []) -> Fields<Key>? {
        let known = Key.names
        guard let pairs = node.pairs else {
            report("expected a mapping (\(known.prefix(3).map { "\($0):" }.joined(separator: " ")) …), found "
                   + node.kindDescription, at: node.mark, path: path)
            return nil
        }
        var result = Fields<Key>(pairs: [])
        for (name, keyNode, value) in self.keys(pairs, path) {
            guard let key = Key(rawValue: name) else {
                let hint = SpellingSuggestion.closest(to: name, in: known).map { "; did you mean \"\($0)\"?" }
                    ?? " (expected one of: \(known.joined(separator: ", ")))"
                report("unknown key \"\(name)\"" + hint, at: keyNode.mark, path: path)
                continue
            }
            result.pairs.append((key, keyNode, value))
        }
        for key in required where result[key] == nil {
            report("missing required key \"\(key.rawValue)\"", at: node.mark, path: path)
        }
        return result
    }

    /// A mapping of user-chosen names (lenses, presets, scripts), duplicates reported.
    mutating func namedEntries(_ node: YAMLNode, _ path: KeyPath, what: String)
        -> [(String, YAMLNode, YAMLNode)]? {
        guard let pairs = node.pairs else {
            report("expected a mapping of \(what), found \(node.kindDescription)", at: node.mark, path: path)
            return nil
        }
        return keys(pairs, path)
    }

    /// Keys as text, in order, with duplicates and non-text keys reported and dropped.
    private mutating func keys(_ pairs: [YAMLNode.Pair], _ path: KeyPath) -> [(String, YAMLNode, YAMLNode)] {
        var seen: [String: SourceMark] = [:]
        var result: [(String, YAMLNode, YAMLNode)] = []
        for pair in pairs {
            guard let key = pair.key.text, !pair.key.isNull else {
                report("a key must be a name, not \(pair.key.kindDescription)", at: pair.key.mark, path: path)
                continue
            }
            if let first = seen[key] {
                report("duplicate key \"\(key)\" (first at line \(first.line), column \(first.column))",
                       at: pair.key.mark, path: path)
                continue
            }
            seen[key] = pair.key.mark
            result.append((key, pair.key, pair.value))
        }
        return result
    }
}
