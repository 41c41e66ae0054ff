/// The rig file's value syntaxes — sizes, frame rates, numbers, bitrates, colours — parsed exactly from a scalar's
/// text. Each returns the value or a message saying what was expected; `RigDecoder` adds the key path and position.
public enum RigValueParser {
    /// What a value should have looked like (the text of a rig diagnostic, without its key path).
    public struct Problem: Error, Sendable, Equatable, ExpressibleByStringInterpolation {
        public var message: String
        public init(stringLiteral value: String) { message = value }
        public init(stringInterpolation: DefaultStringInterpolation) { message = String(stringInterpolation: stringInterpolation) }
    }

    /// `1280x720`: even width and height between 16 and 8192 (H.264 with 4:2:0 chroma needs even sizes).
    public static func size(_ text: String) -> Result<(width: Int, height: Int), Problem> {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = integer(parts[0]), let h = integer(parts[1]) else {
            return .failure("\"\(text)\" is not a size; write WIDTHxHEIGHT such as 1280x720")
        }
        guard (16...8192).contains(w), (16...8192).contains(h) else {
            return .failure("size \(text) is out of range (16 to 8192 each way)")
        }
        guard w % 2 == 0, h % 2 == 0 else { return .failure("size \(text) must have an even width and height") }
        return .success((w, h))
    }

    /// `30`, `25`, `29.97` (read as 30000/1001, likewise 23.976, 59.94, 119.88), `12.5`, or `"30000/1001"`;
    /// between 1 and 240 frames per second.
    public static func frameRate(_ text: String) -> Result<FrameRate, Problem> {
        let bad = Result<FrameRate, Problem>.failure(
            "\"\(text)\" is not a frame rate; write 30, 29.97, 25, 60 or \"30000/1001\"")
        var numerator: Int64, denominator: Int64
        if let slash = text.firstIndex(of: "/") {
            guard let n = integer(text[..<slash]), let d = integer(text[text.index(after: slash)...]), d > 0 else {
                return bad
            }
            (numerator, denominator) = (Int64(n), Int64(d))
        } else {
            guard let exact = decimal(text), exact.negative == false else { return bad }
            (numerator, denominator) = (exact.numerator, exact.denominator)
            for base: Int64 in [24, 30, 48, 60, 120] {
                // 29.97 and 29.970 mean NTSC's 30000/1001: within 0.01 fps of it and not a whole number.
                let ntscTimesDen = base * 1000 * denominator
                if denominator > 1, abs(numerator * 1001 - ntscTimesDen) * 100 < 1001 * denominator {
                    (numerator, denominator) = (base * 1000, 1001)
                }
            }
        }
        // Below 1 fps a frame outlasts a second and a movie's length runs away (1/10000 makes a 5 s take hours
        // long); above 240 no camera delivers.
        guard numerator >= denominator, numerator <= 240 * denominator else {
            return .failure("frame rate \(text) is out of range (1 to 240 fps)")
        }
        let g = gcd(numerator, denominator)
        let n = numerator / g, d = denominator / g
        guard n <= Int64(Int32.max), d <= Int64(Int32.max) else { return bad }
        return .success(FrameRate(Int32(n), Int32(d)))
    }

    /// A plain decimal (`-1`, `+0.7`, `2.0`): no exponents, no `nan`, no hexadecimal.
    public static func number(_ text: String) -> Double? {
        guard let d = decimal(text) else { return nil }
        return (d.negative ? -1 : 1) * Double(d.numerator) / Double(d.denominator)
    }

    /// `128k`, `128000`, `1.5M` bits per second, as an integer.
    public static func bitrate(_ text: String) -> Result<Int, Problem> {
        var s = Substring(text.lowercased())
        var scale: Int64 = 1
        if s.hasSuffix("k") { scale = 1000; s = s.dropLast() } else if s.hasSuffix("m") { scale = 1_000_000; s = s.dropLast() }
        guard let d = decimal(String(s)), !d.negative else {
            return .failure("\"\(text)\" is not a bitrate; write 128k or 128000")
        }
        let bits = d.numerator * scale / d.denominator
        guard (8000...512_000).contains(bits) else { return .failure("bitrate \(text) is out of range (8k to 512k)") }
        return .success(Int(bits))
    }

    /// `#rrggbb`, exactly six hexadecimal digits.
    public static func color(_ text: String) -> Result<RGBColor, Problem> {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let c = RGBColor(hex: text) else {
            return .failure("\"\(text)\" is not a colour; write \"#rrggbb\" such as \"#20c040\" \(commentHint)")
        }
        return .success(c)
    }

    /// Said with every colour problem: an unquoted `#20c040` is a YAML comment, so the value arrives empty or cut.
    public static let commentHint = "(quote it: # starts a comment)"

    /// A non-negative integer of at most 9 digits (no sign, no spaces).
    static func integer<S: StringProtocol>(_ text: S) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// `[+-]digits[.digits]` as an exact fraction (at most 9 digits before and 6 after the point).
    static func decimal(_ text: String) -> (negative: Bool, numerator: Int64, denominator: Int64)? {
        var s = Substring(text)
        var negative = false
        if s.hasPrefix("+") { s = s.dropFirst() } else if s.hasPrefix("-") { s = s.dropFirst(); negative = true }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = integer(parts[0]) else { return nil }
        guard parts.count == 2 else { return (negative, Int64(whole), 1) }
        let fraction = parts[1]
        guard fraction.count <= 6, let f = integer(fraction) else { return nil }
        var denominator: Int64 = 1
        for _ in 0..<fraction.count { denominator *= 10 }
        return (negative, Int64(whole) * denominator + Int64(f), denominator)
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }
}
