import Foundation

/// Expands an `output.name` pattern: `{rig}`, `{date}` (YYYY-MM-DD), `{time}` (HHMMSS, local time), `{script}`.
/// The result is safe as a file name: a slash or a control character becomes `-`.
public enum FileNamePattern {
    public static func expand(_ pattern: String, rig: String, date: Date, script: String?,
                              timeZone: TimeZone = .current) -> String {
        let calendar = { () -> Calendar in
            var c = Calendar(identifier: .gregorian)
            c.timeZone = timeZone
            return c
        }()
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d-%02d-%02d", p.year ?? 0, p.month ?? 0, p.day ?? 0)
        let time = String(format: "%02d%02d%02d", p.hour ?? 0, p.minute ?? 0, p.second ?? 0)
        let expanded = pattern
            .replacingOccurrences(of: "{rig}", with: slug(rig))
            .replacingOccurrences(of: "{date}", with: day)
            .replacingOccurrences(of: "{time}", with: time)
            .replacingOccurrences(of: "{script}", with: slug(script ?? "shell"))
        let safe = String(expanded.map { $0 == "/" || $0.isNewline || ($0.asciiValue.map { $0 < 32 } ?? false) ? "-" : $0 })
        return safe.isEmpty || safe == "." || safe == ".." ? "clip" : safe
    }

    /// Lower-case words joined by `-`: "Desk rig" → "desk-rig".
    public static func slug(_ text: String) -> String {
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }
        return words.isEmpty ? "rig" : words.joined(separator: "-")
    }
}
