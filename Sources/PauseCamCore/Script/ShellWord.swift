/// Quotes text as one word of a shell command line, for the commands PauseCam prints for the user to paste (the
/// recovery command of a kept `.partial`). File names come from the rig's name pattern and may hold anything but
/// `/` and control characters: `'`, `$(…)`, backquotes, spaces, `*`. Quoted here they stay one literal word.
///
/// The word is wrapped in single quotes, inside which POSIX shells (sh, bash, dash, zsh) expand nothing. A `'`
/// cannot appear inside them, so it is written outside as `\'`; a backslash is also written outside (as `\\`),
/// because fish — unlike POSIX shells — treats `\\` and `\'` as escapes even inside single quotes. The result
/// means the same in all of them.
public enum ShellWord {
    /// `text` as one literal shell word: `it's` → `'it'\''s'`.
    public static func quoted(_ text: String) -> String {
        var result = "'"
        for character in text {
            switch character {
            case "'": result += "'\\''"
            case "\\": result += "'\\\\'"
            default: result.append(character)
            }
        }
        return result + "'"
    }

    /// A file path as one shell word that a program cannot mistake for an option: a relative path gets `./` in
    /// front, so `-x.mov` is not read as the option `-x` (and `a:b.mov` not as the protocol `a:` by FFmpeg).
    public static func path(_ path: String) -> String {
        quoted(path.hasPrefix("/") || path.hasPrefix("./") ? path : "./" + path)
    }
}
