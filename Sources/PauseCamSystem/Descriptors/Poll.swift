#if canImport(Glibc)
import Glibc
#endif

/// The one `poll` of this module, for descriptors it owns (`FileDescriptor.rawValue`) and for those it only
/// borrows (the standard streams, libudev's monitor socket). EINTR is retried (the time-out then starts again).
enum Poll {
    /// Waits until one of `descriptors` has one of `events` (or an error or hang-up, always reported), or `timeout`
    /// milliseconds pass (-1: forever). The `revents` of each descriptor in order, all 0 on time-out; a negative
    /// descriptor is skipped and never ready. The corresponding C function is `poll`.
    static func wait(_ descriptors: [Int32], for events: Int16 = Int16(POLLIN),
                     timeout: Int32) -> Result<[Int16], Errno> {
        wait(descriptors.map { (descriptor: $0, events: events) }, timeout: timeout)
    }

    /// The same wait when each descriptor waits for its own `events` (a server reads from every client but writes
    /// only to those with output queued). The corresponding C function is `poll`.
    static func wait(_ requests: [(descriptor: Int32, events: Int16)], timeout: Int32) -> Result<[Int16], Errno> {
        var set = requests.map { pollfd(fd: $0.descriptor, events: $0.events, revents: 0) }
        let result = retryingOnInterrupt {
            set.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
        }
        return result.map { _ in set.map(\.revents) }
    }
}
