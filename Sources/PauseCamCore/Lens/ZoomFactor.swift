/// Reads a zoom factor as typed: `1.5`, `2x`, `0.5x`.
public enum ZoomFactor {
    /// The factor, or `nil` when `text` is not a positive number with an optional `x`.
    public static func parse(_ text: String) -> Double? {
        var s = Substring(text.lowercased())
        if s.hasSuffix("x") || s.hasSuffix("×") { s = s.dropLast() }
        guard !s.isEmpty, s.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(s), value > 0 else {
            return nil
        }
        return value
    }
}
