import Synchronization

/// A flag that device threads read and the serial context sets: whether samples should be posted to the mailboxes.
final class Gate: Sendable {
    private let open = Atomic<Bool>(false)

    /// True when samples are wanted.
    var isOpen: Bool {
        get { open.load(ordering: .acquiring) }
        set { open.store(newValue, ordering: .releasing) }
    }
}
