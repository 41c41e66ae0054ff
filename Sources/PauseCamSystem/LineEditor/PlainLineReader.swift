import Foundation
import Synchronization
import PauseCamCore

/// Reads commands from standard input when it is not a terminal (a pipe, a file): line by line, no editing, no
/// prompt (the shell echoes each command itself), and everything printed goes to standard output in order, so a
/// piped session leaves a readable transcript.
///
/// The read waits in `poll` on standard input and a wake-up pipe, so a signal can cut it short
/// (`interruptRead()`) without closing the input.
public final class PlainLineReader: LineReader, Sendable {
    /// Kept for the `LineReader` contract; a reader without a terminal completes nothing.
    public var completer: (@Sendable (String) -> [String])? {
        get { completion.withLock { $0 } }
        set { completion.withLock { $0 = newValue } }
    }
    private let completion = Guarded<(@Sendable (String) -> [String])?>(nil)
    private let input: FileDescriptor
    private let output: StandardStreamWriter
    private let wakePipe = WakePipe()
    private let interruptRequested = Atomic(false)
    /// Serialises `printError`'s lines on standard error.
    private let errorLines = Guarded(())

    /// What was read and not yet returned as a line; used by the reading thread (the lock is never contended).
    private struct Pending {
        var buffer: [UInt8] = []
        var atEnd = false
    }

    private let pending = Guarded(Pending())

    /// A reader of `input` (standard input by default) printing to `output` (standard output).
    public init(input: Int32 = 0, output: Int32 = 1) {
        self.input = FileDescriptor(borrowing: input)
        self.output = output == 1 ? .output : output == 2 ? .error : StandardStreamWriter(descriptor: output)
    }

    /// The next line; `""` when `interruptRead()` cut the wait short; `nil` at end of input.
    public func readLine(prompt: String) -> String? {
        pending.withLock { pending in
            while true {
                if interruptRequested.exchange(false, ordering: .relaxed) { return "" }
                if let newline = pending.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending.buffer[..<newline], as: UTF8.self)
                    pending.buffer.removeSubrange(...newline)
                    return line.hasSuffix("\r") ? String(line.dropLast()) : line
                }
                if pending.atEnd {
                    guard !pending.buffer.isEmpty else { return nil }
                    defer { pending.buffer.removeAll() }
                    return String(decoding: pending.buffer, as: UTF8.self)
                }
                let ready = LineEditorSystemCalls.poll([input.rawValue, wakePipe.readEnd], timeout: -1)
                if ready[1] != 0 { wakePipe.drain() }
                if ready[0] != 0 { fill(&pending) }
            }
        }
    }

    private func fill(_ pending: inout Pending) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let result: Result<Int, Errno> = chunk.withUnsafeMutableBytes { bytes in
            do throws(Errno) { return .success(try input.read(into: bytes)) } catch { return .failure(error) }
        }
        switch result {
        case .success(let n) where n > 0: pending.buffer += chunk[..<n]
        case .failure(.wouldBlock): break
        case .success, .failure: pending.atEnd = true
        }
    }

    /// No history without a terminal: a piped session is its own record.
    public func addHistory(_ line: String) {}

    /// Prints `text` as one or more lines on the output; callable from any thread. A closed output (EPIPE) drops
    /// the text quietly: the session and its recording go on.
    public func printAbove(_ text: String) {
        output.write(text + "\n")
    }

    /// Prints `text` as one or more lines on standard error (a piped session's failures, apart from its
    /// transcript); callable from any thread.
    public func printError(_ text: String) {
        errorLines.withLock { _ in LineEditorSystemCalls.writeAll(.standardError, Array((text + "\n").utf8)) }
    }

    /// Makes a waiting (or the next) `readLine` return `""` at once; callable from any thread (signal handlers).
    public func interruptRead() {
        interruptRequested.store(true, ordering: .relaxed)
        wakePipe.wake()
    }
}
