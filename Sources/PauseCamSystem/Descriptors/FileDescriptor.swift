import Foundation
import PauseCamCore
#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor that owns its close: whoever holds the object owns the descriptor, and it is closed
/// exactly once — by `close()`, which reports what the close said (a full or failing disk can first surface there),
/// or else quietly when the last reference goes. A class rather than a move-only struct because the descriptors it
/// replaces live in classes shared between threads (the wake pipe, a camera's node), where one borrowed reference
/// must keep the number from being reused while a `poll` waits on it.
///
/// The calls are the few PauseCam makes (read, write, fsync, poll), one wrapper each, EINTR retried by
/// `retryingOnInterrupt`. Using a descriptor after `close()` fails with `EBADF` instead of reaching a number the
/// process may have reused.
final class FileDescriptor: Sendable {
    /// The descriptor's number, for a C call this type does not wrap (ioctl, mmap) made while the caller holds it.
    let rawValue: Int32
    /// The C call that releases it: `close`, or a library's own (`v4l2_close`) for descriptors it opened.
    private let release: @Sendable (Int32) -> Int32
    /// Whether `close()` is still to come; the one mutable state, so the object is shared between threads as is.
    private let isOpen = Guarded(true)

    /// Takes over `rawValue`, which the caller has just opened and will not close itself. `release` is the C call
    /// that closes it (`close` unless a library opened it).
    init(owning rawValue: Int32, release: @escaping @Sendable (Int32) -> Int32 = { Glibc.close($0) }) {
        self.rawValue = rawValue
        self.release = release
    }

    /// A descriptor someone else owns — the process's standard streams, which outlive every reader and writer —
    /// given the same calls: `close()` only stops this object from using it, and nothing closes the number.
    convenience init(borrowing rawValue: Int32) {
        self.init(owning: rawValue, release: { _ in 0 })
    }

    /// Standard error (descriptor 2), borrowed.
    static let standardError = FileDescriptor(borrowing: 2)

    /// Closes quietly what nobody closed: an error here has no one left to hear it.
    deinit { if takeOpen() { _ = release(rawValue) } }

    /// Opens `path` with `flags` (and `permissions` when `O_CREAT` is among them). The corresponding C function is
    /// `open`.
    static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        let raw = try retryingOnInterrupt { Glibc.open(path, flags, permissions) }.get()
        return FileDescriptor(owning: raw)
    }

    /// A pipe whose ends are closed on exec, and optionally do not block. The corresponding C functions are `pipe`
    /// and `fcntl` (`pipe2` needs `_GNU_SOURCE`, which the module does not define).
    static func pipe(nonBlocking: Bool) throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        guard ends.withUnsafeMutableBufferPointer({ Glibc.pipe($0.baseAddress) }) == 0 else { throw Errno.current }
        let pair = (read: FileDescriptor(owning: ends[0]), write: FileDescriptor(owning: ends[1]))
        for end in [pair.read, pair.write] {
            _ = fcntl(end.rawValue, F_SETFD, FD_CLOEXEC)
            if nonBlocking { _ = fcntl(end.rawValue, F_SETFL, fcntl(end.rawValue, F_GETFL) | O_NONBLOCK) }
        }
        return pair
    }

    /// Closes the descriptor and reports what `close` said: `EIO` or `ENOSPC` mean data written through it may be
    /// lost. Closing twice is a no-op, never a second close of a number that may by then belong to someone else.
    /// Never retried: on Linux the descriptor is released even when `close` reports `EINTR`. The corresponding C
    /// function is `close`.
    func close() throws(Errno) {
        guard takeOpen() else { return }
        if release(rawValue) != 0 { throw Errno.current }
    }

    /// True once `close()` was called (by this object; a borrowed descriptor stays open for its owner).
    var isClosed: Bool { isOpen.withLock { !$0 } }

    /// Marks the descriptor closed; true for the one caller that must release it.
    private func takeOpen() -> Bool {
        isOpen.withLock { open in
            defer { open = false }
            return open
        }
    }

    /// Fails with `EBADF` once closed, so no call reaches a reused number.
    private func checkOpen() throws(Errno) {
        if isClosed { throw Errno.badFileDescriptor }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the input. A non-blocking descriptor with nothing to read
    /// throws `Errno.wouldBlock`. The corresponding C function is `read`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try checkOpen()
        return try retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// Writes some of `bytes` and returns how many were taken (a pipe or terminal may take part). The corresponding
    /// C function is `write`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try checkOpen()
        return try retryingOnInterrupt { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }.get()
    }

    /// Writes all of `bytes`, in as many `write`s as it takes.
    func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Flushes the file's (or folder's) data and metadata to the disk. The corresponding C function is `fsync`.
    func synchronize() throws(Errno) {
        try checkOpen()
        _ = try retryingOnInterrupt { fsync(rawValue) }.get()
    }

    /// How many names the open file has in the file system: 0 once it was deleted (its data stays reachable only
    /// through open descriptors, and goes when the last one closes). The corresponding C function is `fstat`.
    func linkCount() throws(Errno) -> Int {
        try checkOpen()
        var info = stat()
        _ = try retryingOnInterrupt { fstat(rawValue, &info) }.get()
        return Int(info.st_nlink)
    }

    /// Waits until the descriptor has one of `events` (or an error or hang-up), or `timeout` milliseconds pass
    /// (-1: forever); returns the `revents` (0 on time-out). The corresponding C function is `poll` (`Poll.wait`).
    func poll(_ events: Int16 = Int16(POLLIN), timeout: Int32) throws(Errno) -> Int16 {
        try checkOpen()
        return try Poll.wait([rawValue], for: events, timeout: timeout).get()[0]
    }
}
