import CEdit
import Foundation
import PauseCamCore

/// The one reader libedit's C callbacks talk to (libedit's readline interface is a process-wide singleton).
nonisolated(unsafe) private var activeReader: LibEditLineReader?

/// Line editing on a terminal with libedit's readline interface: arrow keys, history kept in a file, tab
/// completion from the shell's completer, and — the reason for the callback interface driven by `poll` — engine
/// events printed above the line being typed without garbling it, and a prompt whose live timer keeps ticking.
///
/// Threading: `readLine` runs on one thread (the shell's); only it calls libedit. `printAbove` and
/// `interruptRead` may be called from any thread: while a line is being read they queue their work and wake the
/// reading thread through a pipe; otherwise `printAbove` writes at once.
/// Unchecked Sendable: libedit keeps global C state (the line, the prompt, the history) that only the reading thread
/// touches, as it does this reader's own line state; the flags other threads set are one `Guarded` value and the
/// messages they queue an `AboveLineMessages`.
public final class LibEditLineReader: LineReader, @unchecked Sendable {
    public var completer: (@Sendable (String) -> [String])?
    /// Called on the reading thread a few times a second; when its text differs from the prompt shown, the prompt
    /// is redrawn (the live timer).
    public var livePrompt: (() -> String)?
    /// The history file, or nil to keep history in memory only.
    public let historyPath: String?

    private let wakePipe = WakePipe()
    /// What other threads and the reading thread share. Its lock also keeps a message written at once (nobody
    /// reading) from interleaving with another.
    private struct Shared {
        /// A line is being read (or the live status owns the line): messages are queued, not written.
        var reading = false
        var interruptRequested = false
        /// True while `beginLiveStatus`'s thread owns the line; it ends when this turns false.
        var liveStatusRunning = false
    }

    private let shared = Guarded(Shared())
    /// The messages waiting to be printed above the line (bounded; the oldest go first).
    private let queued = AboveLineMessages()
    private var shownPrompt = ""
    fileprivate var finished = false
    fileprivate var finishedLine: String?
    /// The terminal's settings while the hotkey mode reads single keys; `nil` outside it.
    private var keyboardMode: KeyboardMode?
    private let liveStatusEnded = DispatchSemaphore(value: 0)

    /// How often the live prompt is refreshed while waiting for keys.
    static let refreshMilliseconds: Int32 = 200

    /// Sets libedit up on standard input/output: no signal handlers of its own (the shell's signal watcher owns
    /// SIGINT/SIGTERM/SIGHUP), a UTF-8 character type so `●` and `‖` print as themselves, and the history file.
    public init(historyPath: String?) {
        self.historyPath = historyPath
        if let current = setlocale(LC_CTYPE, ""), ["C", "POSIX"].contains(String(cString: current)) {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        } else if setlocale(LC_CTYPE, nil) == nil {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
        pausecam_rl_set_catch_signals(0)
        rl_initialize()
        using_history()
        stifle_history(1000)
        if let historyPath {
            LineEditorSystemCalls.makeDirectories(PathText.folder(of: historyPath))
            _ = read_history(historyPath)
        }
        pausecam_rl_set_completion_function(libEditComplete)
        activeReader = self
    }

    /// `$XDG_STATE_HOME/pausecam/history`, or `~/.local/state/pausecam/history` when the variable is unset or empty.
    public static func defaultHistoryPath(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/pausecam/history"
        }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/pausecam/history"
    }

    /// True when standard input and output are both terminals (otherwise use `PlainLineReader`).
    public static var standardStreamsAreTerminals: Bool {
        LineEditorSystemCalls.isTerminal(0) && LineEditorSystemCalls.isTerminal(1)
    }

    // MARK: LineReader

    /// The next line; `""` when `interruptRead()` cut it short (the typed text is dropped, as Ctrl-C does in any
    /// shell); `nil` at Ctrl-D on an empty line or end of input.
    public func readLine(prompt: String) -> String? {
        finished = false
        finishedLine = nil
        shownPrompt = prompt
        shared.withLock { $0.reading = true }
        rl_callback_handler_install(Self.editorPrompt(prompt), libEditLineDone)
        var interrupted = false
        while !finished {
            printQueued()
            if takeInterruptRequest() {
                interrupted = true
                break
            }
            let ready = LineEditorSystemCalls.poll([0, wakePipe.readEnd], timeout: Self.refreshMilliseconds)
            if ready[1] != 0 { wakePipe.drain() }
            if ready[0] != 0 {
                rl_callback_read_char()
            } else if ready[1] == 0 {
                refreshPrompt()
            }
        }
        rl_callback_handler_remove()
        if interrupted || finishedLine == nil { write("\n") }
        shared.withLock { $0.reading = false }
        printQueued()
        return interrupted ? "" : finishedLine
    }

    public func addHistory(_ line: String) {
        _ = add_history(line)
        if let historyPath { _ = write_history(historyPath) }
    }

    public func printAbove(_ text: String) {
        let direct = shared.withLock { shared -> Bool in
            if shared.reading { queued.add(text) }
            return !shared.reading
        }
        if direct {
            shared.withLock { _ in write(text + "\n") }
        } else {
            wakePipe.wake()
        }
    }

    /// Makes a waiting (or the next) `readLine` return `""`; callable from any thread (signal handlers).
    public func interruptRead() {
        shared.withLock { $0.interruptRequested = true }
        wakePipe.wake()
    }

    /// Errors go to standard error; while a line is being read they are printed above it like any message (both
    /// streams are the same terminal then).
    public func printError(_ text: String) {
        let reading = shared.withLock { $0.reading }
        if reading {
            printAbove(text)
        } else {
            shared.withLock { _ in LineEditorSystemCalls.writeAll(.standardError, Array((text + "\n").utf8)) }
        }
    }

    // MARK: Single keys

    public func beginKeys() -> Bool {
        guard keyboardMode == nil else { return true }
        keyboardMode = KeyboardMode.enter()
        return keyboardMode != nil
    }

    /// Like `readLine`, but without libedit: the line is only ever the prompt, so events are printed above it
    /// by clearing it, and the prompt is redrawn when `prompt()` changes (the live timer).
    public func readKey(prompt: () -> String) -> KeyRead {
        shared.withLock { $0.reading = true }
        defer {
            write("\r\u{1B}[K")
            shared.withLock { $0.reading = false }
            printQueued()
        }
        var shown = prompt()
        write("\r\u{1B}[K" + shown)
        while true {
            let messages = queued.take()
            if !messages.isEmpty { write("\r\u{1B}[K" + messages.map { $0 + "\n" }.joined() + shown) }
            if takeInterruptRequest() { return .interrupted }
            let ready = LineEditorSystemCalls.poll([0, wakePipe.readEnd], timeout: Self.refreshMilliseconds)
            if ready[1] != 0 { wakePipe.drain() }
            if ready[0] != 0 {
                let bytes = LineEditorSystemCalls.read(0, upTo: 16)
                guard let first = bytes.first, first != 4 else { return .endOfInput }  // 4: Ctrl-D
                if first == 0x1B { continue }  // an escape sequence (arrow keys…): not a hotkey
                if let key = String(decoding: bytes, as: UTF8.self).first { return .key(key) }
            } else if ready[1] == 0 {
                let now = prompt()
                if now != shown {
                    shown = now
                    write("\r\u{1B}[K" + shown)
                }
            }
        }
    }

    public func endKeys() {
        keyboardMode?.restore()
        keyboardMode = nil
    }

    // MARK: Live status while busy

    /// Shows `status()` on the current line every `refreshMilliseconds` until `endLiveStatus()`, on a thread of
    /// its own (the shell's thread is blocked in the `wait`). Meanwhile `printAbove` queues (as while reading) and
    /// the thread prints the messages above the status line. libedit is not used: the line is only ever ours.
    public func beginLiveStatus(_ status: @escaping @Sendable () -> String) {
        shared.withLock { shared in
            shared.reading = true
            shared.liveStatusRunning = true
        }
        let thread = Thread { [self] in
            while shared.withLock({ $0.liveStatusRunning }) {
                let messages = queued.take()
                write("\r\u{1B}[K" + messages.map { $0 + "\n" }.joined() + status())
                let ready = LineEditorSystemCalls.poll([wakePipe.readEnd], timeout: Self.refreshMilliseconds)
                if ready[0] != 0 { wakePipe.drain() }
            }
            liveStatusEnded.signal()
        }
        thread.name = "PauseCam live status"
        thread.start()
    }

    /// Stops the status thread, clears its line and prints what was queued meanwhile.
    public func endLiveStatus() {
        let running = shared.withLock { shared -> Bool in
            defer { shared.liveStatusRunning = false }
            return shared.liveStatusRunning
        }
        guard running else { return }
        wakePipe.wake()
        liveStatusEnded.wait()
        write("\r\u{1B}[K")
        shared.withLock { $0.reading = false }
        printQueued()
    }

    // MARK: Drawing

    /// Prints queued messages above the line being typed: clear the line, print, redraw prompt and typed text.
    private func printQueued() {
        let messages = queued.take()
        guard !messages.isEmpty else { return }
        let stillReading = shared.withLock { $0.reading }
        if stillReading {
            write("\r\u{1B}[K" + messages.map { $0 + "\n" }.joined())
            rl_forced_update_display()
        } else {
            write(messages.map { $0 + "\n" }.joined())
        }
    }

    /// Whether `interruptRead()` asked since the last time; the request is used up.
    private func takeInterruptRequest() -> Bool {
        shared.withLock { shared in
            defer { shared.interruptRequested = false }
            return shared.interruptRequested
        }
    }

    private func refreshPrompt() {
        guard let live = livePrompt?(), live != shownPrompt else { return }
        shownPrompt = live
        _ = rl_set_prompt(Self.editorPrompt(live))
        write("\r\u{1B}[K")
        rl_forced_update_display()
    }

    /// Through the one EPIPE-safe writer of standard output, shared with the rest of the program.
    private func write(_ text: String) {
        StandardStreamWriter.output.write(text)
    }

    /// libedit measures the prompt's width itself: colour escapes are wrapped in its ignore markers (`\1`…`\2`).
    static func editorPrompt(_ prompt: String) -> String {
        var result = ""
        var inEscape = false
        for scalar in prompt.unicodeScalars {
            if scalar == "\u{1B}" {
                inEscape = true
                result += "\u{1}"
            }
            result.unicodeScalars.append(scalar)
            if inEscape && scalar.properties.isAlphabetic {
                inEscape = false
                result += "\u{2}"
            }
        }
        return result
    }

    // MARK: Callbacks from libedit

    fileprivate func lineDone(_ line: UnsafeMutablePointer<CChar>?) {
        finishedLine = line.map { String(cString: $0) }
        free(line)
        finished = true
    }

    /// The completion matches in readline's convention: the text to put in place of the word first, then every
    /// match, then NULL; memory from `malloc`, freed by libedit.
    fileprivate func completions() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        pausecam_rl_set_completion_over(1)
        guard let completer, let buffer = pausecam_rl_line_buffer() else { return nil }
        let typed = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                        count: Int(max(0, pausecam_rl_point())))
        let matches = completer(String(decoding: typed, as: UTF8.self))
        guard let first = matches.first else { return nil }
        var common = first
        for match in matches.dropFirst() {
            while !match.hasPrefix(common) { common.removeLast() }
        }
        let words = matches.count == 1 ? [first] : [common] + matches
        let array = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (words.count + 1))!
            .assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
        for (index, word) in words.enumerated() { array[index] = strdup(word) }
        array[words.count] = nil
        return array
    }
}

/// libedit's line handler: a C function, so it reaches the reader through `activeReader`.
private let libEditLineDone: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { line in
    activeReader?.lineDone(line)
}

/// libedit's completion hook; `start`/`end` are not needed: the completer sees the whole line up to the cursor.
private let libEditComplete: @convention(c) (UnsafePointer<CChar>?, Int32, Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = { _, _, _ in
    activeReader?.completions()
}
