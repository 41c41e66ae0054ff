#if canImport(Glibc)
import Glibc
#endif

/// A C `errno` value as a Swift error: the number the kernel or libc set, its C name (`EINTR`) for logs and bug
/// reports, and the C library's own sentence for users. Every wrapper in this module that reads `errno` turns it
/// into an `Errno` at once, so a later call cannot overwrite it before it is reported.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The positive errno number.
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The errno the last failed C call on this thread set. Read it straight after the call that failed.
    static var current: Errno { Errno(rawValue: errno) }

    /// The C name (`"EINTR"`), or `"errno N"` for a number this table does not know.
    public var name: String { Self.names[rawValue] ?? "errno \(rawValue)" }

    /// The C library's text for it (`"Interrupted system call"`). The corresponding C function is `strerror`.
    public var message: String { String(cString: strerror(rawValue)) }

    /// The C name: what a log line or a test wants to compare.
    public var description: String { name }

    /// The call was interrupted by a signal before it did anything; retry it (`retryingOnInterrupt`). `EINTR`.
    public static let interrupted = Errno(rawValue: EINTR)
    /// Non-blocking and nothing to do now: a result, not a failure. `EAGAIN`.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// The descriptor is closed or was never open. `EBADF`.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// Nothing at that path. `ENOENT`.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// A part of the path is a file, not a folder. `ENOTDIR`.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// The file's permissions forbid it. `EACCES`.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// Not allowed for this user at all. `EPERM`.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// A file name or a path longer than the file system allows. `ENAMETOOLONG`.
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    /// Something already sits at that path. `EEXIST`.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// The disk (or the device) failed; data written may be lost. `EIO`.
    public static let ioError = Errno(rawValue: EIO)
    /// The disk is full; data written may be lost. `ENOSPC`.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// The reader of a pipe went away. `EPIPE`.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// A bad argument, or (for V4L2 enumerations) the end of the list. `EINVAL`.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// The device was unplugged. `ENODEV`.
    public static let noDevice = Errno(rawValue: ENODEV)
    /// The device is in use by another program. `EBUSY`.
    public static let busy = Errno(rawValue: EBUSY)
    /// Out of memory. `ENOMEM`.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// Nobody listens on that socket (a stale socket file). `ECONNREFUSED`.
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    /// A client gave up between its connect and our `accept`. `ECONNABORTED`.
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    /// Something is already bound at that socket address. `EADDRINUSE`.
    public static let addressInUse = Errno(rawValue: EADDRINUSE)

    /// The C names of the errno values PauseCam's calls can meet (Linux numbering, taken from the C constants).
    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO",
        E2BIG: "E2BIG", ENOEXEC: "ENOEXEC", EBADF: "EBADF", ECHILD: "ECHILD", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM",
        EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY", EEXIST: "EEXIST", EXDEV: "EXDEV", ENODEV: "ENODEV",
        ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE",
        ENOTTY: "ENOTTY", EFBIG: "EFBIG", ENOSPC: "ENOSPC", ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK",
        EPIPE: "EPIPE", ERANGE: "ERANGE", ENAMETOOLONG: "ENAMETOOLONG", ENOSYS: "ENOSYS", ELOOP: "ELOOP",
        ENOTSUP: "ENOTSUP", EPROTONOSUPPORT: "EPROTONOSUPPORT", ETIMEDOUT: "ETIMEDOUT", EDQUOT: "EDQUOT",
        ENOBUFS: "ENOBUFS", ESTRPIPE: "ESTRPIPE", ENOTSOCK: "ENOTSOCK", EADDRINUSE: "EADDRINUSE",
        ECONNABORTED: "ECONNABORTED", ECONNRESET: "ECONNRESET", ECONNREFUSED: "ECONNREFUSED",
    ]
}
