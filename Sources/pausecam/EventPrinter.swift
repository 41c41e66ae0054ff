import PauseCamCore

/// Hands the engine's events to the line reader from whatever thread they happen on (the reader is thread-safe
/// for `printAbove`; this box only lets the closure be `@Sendable`).
final class EventPrinter: @unchecked Sendable {
    private let reader: any LineReader
    init(reader: any LineReader) { self.reader = reader }
    func print(_ text: String) { reader.printAbove(text) }
}
