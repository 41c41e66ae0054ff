/// "Did you mean …?" for mistyped names: the closest candidate by edit distance, when it is close enough.
public enum Suggestion {
    /// `" (did you mean \"x\"?)"`, or an empty string when no candidate is close.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        guard let best = closest(to: word, among: candidates) else { return "" }
        return " (did you mean \"\(best)\"?)"
    }

    /// The candidate nearest to `word`, if within a third of its length (at least 1, at most 3 edits).
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = Swift.min(3, Swift.max(1, word.count / 3))
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit, best.1 > 0 || word != best.0 else {
            return nil
        }
        return best.0
    }

    /// Levenshtein distance (insertions, deletions, substitutions).
    public static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1,
                                       previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
