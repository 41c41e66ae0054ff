import Foundation

/// The argument of `mark`: a marker's text, or `rename N TEXT`, which names marker N of the recording clip. A bare
/// `mark` (no argument) is a numbered marker and never reaches here.
extension CommandParser {
    /// The highest marker number `mark rename` takes: far beyond any clip's markers, and a bound on what a remote
    /// may send.
    public static let maximumMarkerNumber = 1_000_000

    /// How `mark rename` is written, for its errors and help.
    static let markRenameUsage = "mark rename N TEXT names marker N (the number mark's reply gave), e.g. mark rename 2 good take"

    /// `text` as a marker's text, or as `rename N TEXT`. A text whose first word is `rename` is always read as a
    /// rename, so `mark rename …` never silently becomes a marker called "rename …".
    static func markArgument(_ text: String) -> Result<Command, Failure> {
        let words = text.split(maxSplits: 2, omittingEmptySubsequences: true, whereSeparator: \.isWhitespace)
        guard words.first?.lowercased() == "rename" else { return .success(.mark(text)) }
        guard words.count == 3 else {
            return .failure(Failure(markRenameUsage + " (got \"mark \(text)\")", part: .argument))
        }
        guard let number = Int(words[1]), (1...maximumMarkerNumber).contains(number) else {
            return .failure(Failure("\"\(words[1])\" is not a marker number (1 to \(maximumMarkerNumber)): "
                                    + markRenameUsage, part: .argument))
        }
        var name = String(words[2]).trimmingCharacters(in: .whitespaces)
        if name.count >= 2, let first = name.first, first == name.last, first == "\"" || first == "'" {
            name = String(name.dropFirst().dropLast())
        }
        guard !name.isEmpty else {
            return .failure(Failure(markRenameUsage + " (got \"mark \(text)\")", part: .argument))
        }
        return .success(.renameMarker(number: number, name: name))
    }
}
