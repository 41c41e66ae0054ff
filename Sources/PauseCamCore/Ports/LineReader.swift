/// Where the shell's typed lines come from: libedit on a terminal (PauseCamSystem), plain standard input when it is
/// not a terminal, or a script of lines in tests.
public protocol LineReader: AnyObject {
    /// Shows `prompt` and returns the next line without its newline, or `nil` at end of input (Ctrl-D).
    func readLine(prompt: String) -> String?
    /// Adds a line to the history (and to the history file, if there is one).
    func addHistory(_ line: String)
    /// Prints `text` above the line being typed, without garbling it.
    func printAbove(_ text: String)
    /// Words offered by tab completion, given the line typed so far.
    var completer: (@Sendable (String) -> [String])? { get set }
}
