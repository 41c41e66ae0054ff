/// Cuts the bytes a control-socket client sends into request lines, with the limits that keep one client from
/// hurting the recorder or the others: a line is at most `maximumLineLength` bytes, must be UTF-8 and must not
/// contain NUL or any other control character (`VisibleText`; a final carriage return is taken as part of the
/// line's end). A server keeps one framer per client (its own buffer), so a client that sends half a line and then
/// nothing holds only its own few bytes.
///
/// A line over the limit ends the conversation (`tooLong`, then `isClosed`): the rest of it cannot be told apart
/// from the next request, so the server replies with the error and closes the connection. The framer notices as soon
/// as the limit is passed, without waiting for the newline, so a 1 MiB line costs at most 4 KiB of memory.
public struct ControlLineFramer: Sendable {
    /// The longest request line, in bytes, not counting the newline: far above any command (a `mark` text is a
    /// sentence), far below what could cost the recorder memory.
    public static let maximumLineLength = 4096

    /// What a chunk of bytes yielded, in order.
    public enum Output: Sendable, Equatable {
        /// A complete request line, without its newline (a trailing carriage return is dropped too).
        case line(String)
        /// A complete line that is not text: the reason, for an `error` reply. The connection may go on.
        case junk(String)
        /// The current line passed `maximumLineLength` bytes: reply with an error and close the connection.
        case tooLong
    }

    private var buffer: [UInt8] = []
    /// True after `tooLong`: the framer yields nothing more.
    public private(set) var isClosed = false
    /// True while bytes of an unfinished line are waiting (a client that stops mid-line).
    public var hasPartialLine: Bool { !buffer.isEmpty }

    public init() {}

    /// Takes the next bytes received from the client and returns the lines (and refusals) they complete.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) -> [Output] where Bytes.Element == UInt8 {
        guard !isClosed else { return [] }
        var outputs: [Output] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                outputs.append(Self.decode(buffer))
                buffer.removeAll(keepingCapacity: true)
                continue
            }
            buffer.append(byte)
            if buffer.count > Self.maximumLineLength {
                buffer = []
                isClosed = true
                outputs.append(.tooLong)
                return outputs
            }
        }
        return outputs
    }

    private static func decode(_ bytes: [UInt8]) -> Output {
        var bytes = bytes[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        if bytes.contains(0) { return .junk("the line contains a NUL byte; send one command per line as text") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .junk("the line is not UTF-8 text; send one command per line as text")
        }
        // A carriage return or an escape inside a request would let one request read, or print, as two commands:
        // the whole line is refused, nothing of it carried out.
        if VisibleText.containsControl(text) {
            return .junk("the line contains a control character (\(VisibleText.escaped(text))); nothing was done: "
                         + "send one command per line as plain text")
        }
        return .line(text)
    }

    /// The error text for a line over the limit.
    public static var tooLongMessage: String {
        "the line is longer than \(maximumLineLength) bytes; one command per line (the connection is closed)"
    }
}
