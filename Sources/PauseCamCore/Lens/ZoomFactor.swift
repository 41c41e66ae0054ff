/// Reads a zoom factor as typed: `1.5`, `2x`, `0.5x`; and prints one the same way everywhere.
public enum ZoomFactor {
    /// The factor, or `nil` when `text` is not a positive number with an optional `x`.
    public static func parse(_ text: String) -> Double? {
        number(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The one reading of a typed factor: `1.5`, `1.5x`, `2×`, plain ASCII decimals with at most one point; `nil`
    /// for anything else. Zero is read, so that a caller can say "out of range" rather than "not a factor".
    public static func number(_ text: String) -> Double? {
        var s = Substring(text.lowercased())
        if s.hasSuffix("x") || s.hasSuffix("×") { s = s.dropLast() }
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              s.filter({ $0 == "." }).count <= 1, s != "." else { return nil }
        return Double(s)
    }

    /// `2x`, `1.5x`, `1.25x`: at most two decimals, no trailing zeros. The one way a factor is printed, so that a
    /// command's reply, the prompt and `status` never show the same zoom as two different numbers.
    public static func text(_ factor: Double) -> String {
        let hundredths = (factor * 100).rounded()
        guard hundredths.isFinite, abs(hundredths) < 1e15 else { return "\(factor)x" }
        let whole = Int64(hundredths)
        let units = whole / 100, rest = abs(whole % 100)
        if rest == 0 { return "\(units)x" }
        return rest % 10 == 0 ? "\(units).\(rest / 10)x" : "\(units).\(rest < 10 ? "0" : "")\(rest)x"
    }
}
