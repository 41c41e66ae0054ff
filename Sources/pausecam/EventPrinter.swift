import PauseCamCore

/// Hands the engine's events to the line reader from whatever thread they happen on (the reader is thread-safe
/// for `printAbove`; this box keeps the shell's closures to that one call). The readers write through
/// `StandardStreamWriter`, so an event printed after the reader of standard output went away is dropped quietly
/// instead of killing the shell and its recording.
final class EventPrinter: Sendable {
    private let reader: any LineReader & Sendable
    init(reader: any LineReader & Sendable) { self.reader = reader }
    func print(_ text: String) { reader.printAbove(text) }
}
