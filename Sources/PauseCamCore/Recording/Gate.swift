import Foundation

/// A flag that device threads read and the serial context sets: whether samples should be posted to the mailboxes.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var open = false

    /// True when samples are wanted.
    var isOpen: Bool {
        get { lock.withLock { open } }
        set { lock.withLock { open = newValue } }
    }
}
