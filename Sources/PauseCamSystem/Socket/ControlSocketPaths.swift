#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// The default control-socket paths of this user, for the recorder and for `pausecam ctl` alike (see
/// `ControlSocketLocation` for the rule; this adds the user id only the operating system knows).
public enum ControlSocketPaths {
    /// The folder of this user's sockets.
    public static func directory(environment: [String: String]) -> String {
        ControlSocketLocation.directory(environment: environment, userID: SocketCalls.userID)
    }

    /// The socket of the rig named `rigName`.
    public static func socket(rigName: String, environment: [String: String]) -> String {
        ControlSocketLocation.socketPath(rigName: rigName, environment: environment, userID: SocketCalls.userID)
    }

    /// The pid written in the lock file beside `socket`, if any (for listing running instances).
    public static func holderPID(socket: String) -> Int32? {
        let lockPath = ControlSocketLocation.lockPath(socket: socket)
        guard let descriptor = try? SocketCalls.openLockFile(lockPath) else { return nil }
        defer { try? descriptor.close() }
        return Int32(SocketCalls.readSmallFile(descriptor).filter(\.isNumber))
    }
}
