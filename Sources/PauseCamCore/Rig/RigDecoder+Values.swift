/// The single values of a rig file (text, numbers, durations, choices, booleans), each read with its own message
/// when it is not what the key needs. Shared by every section's decoder.
extension RigDecoder {
    /// A non-empty single value.
    mutating func text(_ node: YAMLNode, _ path: KeyPath) -> String? {
        guard let t = node.text, !node.isNull, !t.isEmpty else {
            report("expected a value, found \(node.kindDescription)", at: node.mark, path: path)
            return nil
        }
        return t
    }

    /// A value read by one of `RigValueParser`'s parsers, its problem reported.
    mutating func value<T>(_ node: YAMLNode, _ path: KeyPath,
                           _ parse: (String) -> Result<T, RigValueParser.Problem>) -> T? {
        guard let t = text(node, path) else { return nil }
        switch parse(t) {
        case .success(let v): return v
        case .failure(let problem):
            report(problem.message, at: node.mark, path: path)
            return nil
        }
    }

    /// One of an enum's spellings (`standby: hot`), with the nearest as a suggestion.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ path: KeyPath,
                                                             _ type: T.Type) -> T? where T.RawValue == String {
        guard let t = text(node, path) else { return nil }
        if let v = T(rawValue: t) { return v }
        let all = T.allCases.map(\.rawValue)
        report("\"\(t)\" is not one of \(all.joined(separator: ", "))" + suggestion(t, all), at: node.mark, path: path)
        return nil
    }

    mutating func bool(_ node: YAMLNode, _ path: KeyPath) -> Bool? {
        guard let t = text(node, path) else { return nil }
        switch t {
        case "true": return true
        case "false": return false
        default:
            report("expected true or false, found \"\(t)\"", at: node.mark, path: path)
            return nil
        }
    }

    mutating func integer(_ node: YAMLNode, _ path: KeyPath, in range: ClosedRange<Int>, what: String) -> Int? {
        guard let t = text(node, path) else { return nil }
        guard let v = RigValueParser.integer(t), range.contains(v) else {
            report("expected \(what), found \"\(t)\"", at: node.mark, path: path)
            return nil
        }
        return v
    }

    /// A decimal in `min...max` (`min` itself excluded unless `inclusiveMin`).
    mutating func number(_ node: YAMLNode, _ path: KeyPath, min: Double, max: Double,
                         inclusiveMin: Bool = false, what: String) -> Double? {
        guard let t = text(node, path) else { return nil }
        guard let v = RigValueParser.number(t), inclusiveMin ? v >= min : v > min, v <= max else {
            report("expected \(what), found \"\(t)\"", at: node.mark, path: path)
            return nil
        }
        return v
    }

    mutating func duration(_ node: YAMLNode, _ path: KeyPath, max: MediaTime, positive: Bool) -> MediaTime? {
        guard let t = text(node, path) else { return nil }
        guard let d = DurationParser.parse(t) else {
            report("\"\(t)\" is not a duration (try 2s, 400ms, 1/30)", at: node.mark, path: path)
            return nil
        }
        guard d <= max, !positive || d > .zero else {
            report("duration \(t) is out of range (\(positive ? "more than 0" : "0 or more"), at most "
                   + "\(CommandParser.formatDuration(max)))", at: node.mark, path: path)
            return nil
        }
        return d
    }

    /// `; did you mean "X"?`, or with `orList` the list of what is known, or nothing.
    func suggestion(_ word: String, _ known: [String], orList: Bool = false) -> String {
        if let near = SpellingSuggestion.closest(to: word, in: known) { return "; did you mean \"\(near)\"?" }
        if orList, !known.isEmpty { return " (expected one of: \(known.joined(separator: ", ")))" }
        return ""
    }
}
