/// The one reply line of the control protocol: `ok MESSAGE` or `error MESSAGE`, one line per request, so a client
/// reads exactly one line after each line it sends. A reply spread over several lines (a hint with a command to
/// run) is joined with " | ": a newline inside a reply would be read as the next reply.
public struct ControlReply: Sendable, Equatable {
    public var ok: Bool
    public var message: String

    public init(ok: Bool, message: String) {
        self.ok = ok
        self.message = message
    }

    /// The reply to a command the controller carried out.
    public init(_ reply: RigController.Reply) { self.init(ok: reply.ok, message: reply.message) }

    /// A refusal: the request was not carried out.
    public static func error(_ message: String) -> ControlReply { ControlReply(ok: false, message: message) }

    /// The line sent on the socket, without its newline.
    public var line: String {
        let flat = message.split(whereSeparator: \.isNewline).joined(separator: " | ")
        let word = ok ? "ok" : "error"
        return flat.isEmpty ? word : word + " " + flat
    }

    /// Reads a reply line back (the `pausecam ctl` side); `nil` when the line is neither `ok…` nor `error…`.
    public init?(line: String) {
        for (word, ok) in [("ok", true), ("error", false)] {
            if line == word { self.init(ok: ok, message: ""); return }
            if line.hasPrefix(word + " ") { self.init(ok: ok, message: String(line.dropFirst(word.count + 1))); return }
        }
        return nil
    }
}
