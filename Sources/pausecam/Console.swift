import Foundation

/// Standard output for results, standard error for events and warnings; line-buffered and thread-safe.
final class Console: @unchecked Sendable {
    private let lock = NSLock()

    /// A result line, on standard output.
    func line(_ text: String) {
        lock.withLock { FileHandle.standardOutput.write((text + "\n").data(using: .utf8)!) }
    }

    /// An event (scene change, saved clip, unplugged camera), on standard error.
    func event(_ text: String) {
        lock.withLock { FileHandle.standardError.write(("pausecam: " + text + "\n").data(using: .utf8)!) }
    }
}
