/// Control characters in text that came from a user (a mark, a chapter name, a typed line): found, so a line that
/// carries one can be refused where it would change meaning (the control socket: one request is one command), and
/// shown as visible characters where text is printed, so a mark cannot retitle the terminal, move its cursor or
/// hide a line. The text itself is kept as given (the sidecar's JSON escapes it).
///
/// Control characters are Unicode's `Cc`: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F). They are
/// shown in the notation `cat -v` and terminals use: `^[` for ESC, `^G` for BEL, `^I` for a tab, `^?` for DEL, and
/// `M-^[` for the C1 control U+009B (`M-` plus the C0 control 128 below it).
public enum VisibleText {
    /// True for a control character (`Cc`).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// True when `text` holds any control character.
    public static func containsControl<Text: StringProtocol>(_ text: Text) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// `text` with each control character written visibly (`"\u{1B}]0;x\u{7}"` → `"^[]0;x^G"`); line feeds are kept
    /// when `keepingLineFeeds` (text of several lines that the program itself put together).
    public static func escaped(_ text: String, keepingLineFeeds: Bool = false) -> String {
        guard containsControl(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isControl(scalar) || (keepingLineFeeds && scalar == "\n") {
                result.append(scalar)
            } else {
                result.append(contentsOf: caretNotation(scalar).unicodeScalars)
            }
        }
        return String(result)
    }

    /// `^@`…`^_` for C0, `^?` for DEL, `M-^@`…`M-^_` for C1.
    private static func caretNotation(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x7F: return "^?"
        case 0x80...0x9F: return "M-" + caretNotation(Unicode.Scalar(scalar.value - 0x80)!)
        default: return "^" + String(Unicode.Scalar(scalar.value + 0x40)!)
        }
    }
}
