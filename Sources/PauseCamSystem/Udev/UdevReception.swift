/// What one read of the udev monitor gave: an event's device, nothing more for now, lost events, or a failure.
enum UdevReception {
    /// One event; its `action` says what happened.
    case device(UdevDevice)
    /// Nothing is ready (`EAGAIN`): wait for the socket again.
    case drained
    /// The kernel dropped events because the socket buffer was full (`ENOBUFS`): which adds and removes were lost
    /// is unknown, so whoever reads must re-enumerate.
    case overflow
    /// Another error; reading stops until the socket is ready again.
    case failed(UdevError)
}
