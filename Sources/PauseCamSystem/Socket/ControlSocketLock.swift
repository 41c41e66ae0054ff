#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PauseCamCore

/// The claim of one rig's control socket: an exclusive `flock` on `SOCKET.lock`, which holds the owner's pid.
///
/// Only the lock says whether a PauseCam runs: the kernel releases it when the holder exits, SIGKILL included, so a
/// socket file left by a killed process is recognised as stale (lock free, connection refused) and replaced, while
/// a second PauseCam on the same rig is refused with the holder's pid. The lock file itself is left in place when
/// the holder stops (removing a file others may be locking would let two processes hold "the" lock).
public final class ControlSocketLock: Sendable {
    /// The socket path this lock guards.
    public let socketPath: String
    /// The lock file beside it.
    public let lockPath: String
    /// The lock file, owned while the claim holds; nil once released (closing it is what drops the lock).
    /// Under a mutex: the server's stop and the composition root may both release it.
    private let descriptor: Guarded<FileDescriptor?>

    private init(socketPath: String, lockPath: String, descriptor: FileDescriptor) {
        self.socketPath = socketPath
        self.lockPath = lockPath
        self.descriptor = Guarded(descriptor)
    }

    /// Claims `socketPath`. With `privateDirectory`, its folder is first created with mode 0700, or checked to be
    /// a folder of this user that no one else may enter (the default folders are; a `--socket` path's folder is the
    /// user's own choice). Throws `SocketError.held` with the holder's pid when another process has the lock.
    public static func claim(socketPath: String, privateDirectory: Bool) throws(SocketError) -> ControlSocketLock {
        if privateDirectory {
            let directory = String(socketPath[..<(socketPath.lastIndex(of: "/") ?? socketPath.startIndex)])
            try ensurePrivateDirectory(directory)
        }
        let lockPath = ControlSocketLocation.lockPath(socket: socketPath)
        let descriptor = try SocketCalls.openLockFile(lockPath)
        do throws(SocketError) {
            guard try SocketCalls.tryLock(descriptor, path: lockPath) else {
                let pid = Int32(SocketCalls.readSmallFile(descriptor).trimmingCharacters(in: .whitespacesAndNewlines))
                throw SocketError.held(socket: socketPath, pid: pid)
            }
            try SocketCalls.replaceContents(descriptor, with: "\(SocketCalls.processID)\n", path: lockPath)
        } catch {
            try? descriptor.close()
            throw error
        }
        return ControlSocketLock(socketPath: socketPath, lockPath: lockPath, descriptor: descriptor)
    }

    /// Creates `directory` (mode 0700) if it is missing, then checks it: a real folder (not a link), owned by this
    /// user, with no permission for group or others. In a shared /tmp this is what stops another user from planting
    /// the folder first.
    public static func ensurePrivateDirectory(_ directory: String) throws(SocketError) {
        _ = try SocketCalls.makeDirectory(directory, mode: 0o700)
        guard let status = try SocketCalls.fileStatus(directory) else {
            throw .notPrivate(directory: directory, reason: "it vanished while being created")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .notPrivate(directory: directory, reason: "it is not a folder")
        }
        guard status.st_uid == SocketCalls.userID else {
            throw .notPrivate(directory: directory, reason: "it belongs to user \(status.st_uid)")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw .notPrivate(directory: directory, reason: "mode \(String(status.st_mode & 0o777, radix: 8)), not 700")
        }
    }

    /// Gives up the claim: the pid is cleared and the lock released (the kernel would do the same at exit).
    public func release() {
        guard let descriptor = descriptor.withLock({ $0.take() }) else { return }
        try? SocketCalls.replaceContents(descriptor, with: "", path: lockPath)
        try? descriptor.close()
    }

    deinit { release() }
}
