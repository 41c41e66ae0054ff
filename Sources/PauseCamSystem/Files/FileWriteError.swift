#if canImport(Glibc)
import Glibc
#endif

/// A file-system call that failed while PauseCam wrote one of its own files (sidecar, thumbnail): which call, on
/// which path, the errno's meaning, and what the user can do about it.
public struct FileWriteError: Error, CustomStringConvertible {
    /// The C call that failed (`open`, `write`, `fsync`, `close`, `rename`).
    public var call: String
    /// The path it was given (for `fsync` of a folder, the folder).
    public var path: String
    /// The errno it set.
    public var code: Int32

    public init(_ call: String, path: String, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
    }

    /// The failure of `call` on `path`, as the `FileDescriptor` wrapper reported it.
    init(_ call: String, path: String, errno: Errno) {
        self.init(call, path: path, code: errno.rawValue)
    }

    public var description: String {
        let hint: String
        switch code {
        case ENOSPC, EDQUOT: hint = "free some space on that disk or record to another with --output"
        case EACCES, EPERM, EROFS: hint = "check the folder's permissions or record to another with --output"
        case EEXIST: hint = "something already sits at that path; PauseCam never overwrites or follows it"
        case ELOOP: hint = "a symbolic link sits at that path; PauseCam never follows it"
        case ENAMETOOLONG: hint = MovieNameReserver.nameTooLongAdvice(path)
        default: hint = "check the disk and the folder"
        }
        return "\(call)(\(path)): \(Errno(rawValue: code).message); \(hint)"
    }
}
