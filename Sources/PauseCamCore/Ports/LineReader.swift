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
    /// Prints an error: on standard error, so that a caller reading a piped session's standard output (results)
    /// can tell failures apart, and a cron job or CI log sees them.
    func printError(_ text: String)
    /// While a command lets time pass (`wait`), shows `status()` on a line of its own, redrawn a few times a
    /// second, so the live timer keeps moving; events are printed above it. `status` is called on another thread.
    func beginLiveStatus(_ status: @escaping @Sendable () -> String)
    /// Ends what `beginLiveStatus` started and clears its line. Called on the thread that began it.
    func endLiveStatus()
    /// Switches to reading single keys without Enter (the shell's hotkey mode); false when input is not a
    /// terminal. Every `beginKeys` that returned true is followed by `endKeys`, whatever ends the mode.
    func beginKeys() -> Bool
    /// Shows `prompt()` on a line of its own (redrawn while it changes, events printed above it) and waits for one
    /// key.
    func readKey(prompt: () -> String) -> KeyRead
    /// Puts the terminal back as `beginKeys` found it and clears the prompt line.
    func endKeys()
}

/// What `LineReader.readKey` got.
public enum KeyRead: Sendable, Equatable {
    /// A key (an escape sequence, such as an arrow key, is not one and is skipped).
    case key(Character)
    /// `interruptRead()` cut the wait short (a signal).
    case interrupted
    /// End of input, or Ctrl-D.
    case endOfInput
}

extension LineReader {
    /// Readers with a single output stream (test scripts) print errors like anything else.
    public func printError(_ text: String) { printAbove(text) }
    /// Readers without a terminal show no live status: a piped session's transcript stays free of redraws.
    public func beginLiveStatus(_ status: @escaping @Sendable () -> String) {}
    public func endLiveStatus() {}
    /// Readers without a terminal cannot read single keys.
    public func beginKeys() -> Bool { false }
    public func readKey(prompt: () -> String) -> KeyRead { .endOfInput }
    public func endKeys() {}
}
