import PauseCamCore

/// Where a `UdevWatcher` reads hot-plug from: the udev monitor (`UdevMonitorSource`), or a script in tests of the
/// watcher's own loop (overflow, re-enumeration, stop). Made on the caller's thread, then used from the watcher's
/// thread only.
protocol UdevEventSource: AnyObject, Sendable {
    /// Becomes readable when an event (or an overflow) is waiting; the watcher polls it.
    var fileDescriptor: Int32 { get }
    /// The next event, already read into an action on a device node (`nil` identity: not a capture node).
    func next() -> UdevSourceEvent
    /// The capture cameras present now: the truth after events were lost.
    func cameras() throws -> [CameraIdentity]
}

/// One read of a `UdevEventSource`.
enum UdevSourceEvent: Equatable {
    /// `action` (`add`, `change`, `remove`…) on the node `devicePath`; `identity` is `nil` when it is not a
    /// capture node.
    case action(String, devicePath: String, identity: CameraIdentity?)
    /// An event about a device without a node (nothing to report).
    case ignored
    /// Nothing more is ready.
    case drained
    /// Events were lost (`ENOBUFS`): re-enumerate once the queue is drained.
    case overflow
    /// Reading failed; wait for the socket again.
    case failed
}
