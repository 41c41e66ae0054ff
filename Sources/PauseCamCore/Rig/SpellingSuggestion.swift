/// "Did you mean": the closest known word to a misspelt one, by edit distance. Shared by the rig decoder (unknown
/// keys, lens and preset names) and the command parser (command words), so both surfaces suggest alike.
public enum SpellingSuggestion {
    /// The candidate nearest to `word` when it is near enough to be a typo (one edit for words of up to three
    /// letters, else two or a third of the length, whichever is more); ties go to the earlier candidate. Case is
    /// ignored.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        let limit = w.count <= 3 ? 1 : max(2, w.count / 3)
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(w, Array(candidate.lowercased()))
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// `; did you mean "X"?` or the empty string, for appending to a message.
    public static func clause(for word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment).
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
