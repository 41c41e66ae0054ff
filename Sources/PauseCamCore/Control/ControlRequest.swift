/// One request line of the control socket. Most are a line of the shell's grammar, parsed by the same
/// `CommandParser` into the same `Command` (so a socket line, a typed line and a script step cannot disagree); two
/// are the socket's own: `status --json` (the state as one JSON object, for status bars) and `watch` (every event
/// from now on, one JSON line each).
public enum ControlRequest: Sendable, Equatable {
    case command(Command)
    case statusJSON
    case watch

    /// Parses `line` with `parser` (which knows the rig's names). Commands that need a terminal or would hold the
    /// connection are refused here: `wait` (a remote wants a reply now, and sleeps on its own side) and the shell's
    /// own commands.
    public static func parse(_ line: String, parser: CommandParser) -> Result<ControlRequest, CommandParser.Failure> {
        let words = line.split(whereSeparator: \.isWhitespace)
        if words.map({ $0.lowercased() }) == ["status", "--json"] { return .success(.statusJSON) }
        if words.count == 1, words[0].lowercased() == "watch" { return .success(.watch) }
        return parser.parse(line).flatMap { command in
            if case .wait = command {
                return .failure(CommandParser.Failure("\"wait\" is for scripts and the shell; a remote waits on its own side",
                                                      part: .word))
            }
            guard command.isScriptStep else {
                return .failure(CommandParser.Failure("\"\(command.word)\" works only in the shell, not over the socket",
                                                      part: .word))
            }
            return .success(.command(command))
        }
    }
}
