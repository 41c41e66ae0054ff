#if canImport(Glibc)
import Glibc
#endif

/// Why the control socket could not be set up or used: which call failed on which path with which errno, or which
/// rule a path broke, and what the user can do about it.
public enum SocketError: Error, CustomStringConvertible, Equatable {
    /// A C call failed: its name, the path it concerned, and why (the errno, with its C name).
    case call(String, path: String, failure: Errno)
    /// Another process holds the rig's lock: its pid as the lock file says (nil when it could not be read).
    case held(socket: String, pid: Int32?)
    /// The socket's folder is not private to this user (another owner, or open to others).
    case notPrivate(directory: String, reason: String)
    /// A socket path longer than `sockaddr_un` holds (107 bytes).
    case pathTooLong(String)
    /// Something that is not a stale socket sits where the socket must go.
    case occupied(path: String, reason: String)

    public var description: String {
        switch self {
        case .call(let call, let path, let failure):
            let hint: String
            switch failure.rawValue {
            case ENOENT, ECONNREFUSED: hint = "no PauseCam is listening there (start `pausecam shell RIG` or `pausecam run RIG`)"
            case EACCES, EPERM: hint = "the socket belongs to another user; run as that user"
            case EADDRINUSE: hint = "something else is bound there; choose another path with --socket"
            default: hint = "check the path, or choose another with --socket"
            }
            return "\(call)(\(path)): \(failure.message) (\(failure.name)); \(hint)"
        case .held(let socket, let pid):
            let who = pid.map { "process \($0)" } ?? "another process"
            return "this rig is already running in \(who) (it holds \(socket)); "
                + "stop it first, or give this one another socket with --socket PATH"
        case .notPrivate(let directory, let reason):
            return "\(directory) is not a private folder (\(reason)); PauseCam puts its control socket only in a folder "
                + "of yours with mode 0700: remove it, or use --socket PATH"
        case .pathTooLong(let path):
            return "the socket path \(path) is longer than a Unix socket address allows (107 bytes); use a shorter --socket"
        case .occupied(let path, let reason):
            return "\(path) \(reason); remove it or choose another path with --socket"
        }
    }
}
