import PauseCamCore

/// A small command-line parser: positional words, `--flag`, `--option VALUE` and `--option=VALUE`.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    /// Options that take a value; every other `--word` is a flag.
    static let valued: Set<String> = ["script", "output", "clock", "rig", "on-error", "format", "start-timecode",
                                      "socket", "web"]

    init(_ words: [String]) throws {
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--" {
                positional += words[(index + 1)...]
                break
            }
            if word.hasPrefix("--") {
                let body = String(word.dropFirst(2))
                if let eq = body.firstIndex(of: "=") {
                    options[String(body[..<eq])] = String(body[body.index(after: eq)...])
                } else if Arguments.valued.contains(body) {
                    guard index + 1 < words.count else { throw UsageError("--\(body) needs a value") }
                    options[body] = words[index + 1]
                    index += 1
                } else {
                    flags.insert(body)
                }
            } else if word == "-h" {
                flags.insert("help")
            } else {
                positional.append(word)
            }
            index += 1
        }
    }

    /// Rejects options this command does not know, naming them.
    /// A misspelt one gets "did you mean" with the nearest known option (`--scirpt` → `--script`).
    func allow(options allowedOptions: Set<String>, flags allowedFlags: Set<String>) throws {
        let known = (allowedOptions.union(allowedFlags).union(["help"])).sorted()
        for key in options.keys.sorted() where !allowedOptions.contains(key) {
            throw UsageError("unknown option --\(key)\(Arguments.suggestion(for: key, among: known))")
        }
        for flag in flags.sorted() where !allowedFlags.contains(flag) && flag != "help" {
            throw UsageError("unknown option --\(flag)\(Arguments.suggestion(for: flag, among: known))")
        }
    }

    /// `; did you mean --script?` when a known option is close to `word`, else nothing.
    static func suggestion(for word: String, among known: [String]) -> String {
        guard let near = SpellingSuggestion.closest(to: word, in: known) else { return "" }
        return "; did you mean --\(near)?"
    }
}

/// A mistake on the command line: printed with a pointer to `--help`, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
