import PauseCamCore

/// Hands the engine's events to the line reader from whatever thread they happen on (the reader is thread-safe
/// for `printAbove`; this box only lets the closure be `@Sendable`). The readers write through
/// `StandardStreamWriter`, so an event printed after the reader of standard output went away is dropped quietly
/// instead of killing the shell and its recording.
/// Unchecked Sendable: holds a line reader whose `printAbove` is thread-safe.
final class EventPrinter: @unchecked Sendable {
    private let reader: any LineReader
    init(reader: any LineReader) { self.reader = reader }
    func print(_ text: String) { reader.printAbove(text) }
}
