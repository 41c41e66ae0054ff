#if canImport(Glibc)
import Glibc
#endif

/// The C calls behind the control socket, one wrapper each. EINTR is retried by `retryingOnInterrupt` and the
/// errno becomes an `Errno` there; a failure is a `SocketError` naming the call and the path. Sockets and the lock
/// file come back as `FileDescriptor`s, so whoever holds one owns its close (once, by the type).
enum SocketCalls {
    /// What a non-blocking read or write did.
    enum Transfer: Equatable {
        case bytes(Int)
        case wouldBlock
        /// The peer closed its end (read) or went away (write: EPIPE, ECONNRESET).
        case end
    }

    /// A new Unix stream socket, close-on-exec, owned by the caller. The corresponding C function is `socket`.
    static func streamSocket(path: String) throws(SocketError) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        switch retryingOnInterrupt({ socket(AF_UNIX, type, 0) }) {
        case .success(let descriptor): return FileDescriptor(owning: descriptor)
        case .failure(let failure): throw .call("socket", path: path, failure: failure)
        }
    }

    /// Runs `body` with `path` as a `sockaddr_un`. A path that does not fit is refused (never truncated: a truncated
    /// path names another socket).
    private static func withAddress<T>(_ path: String,
                                       _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws(SocketError) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else { throw .pathTooLong(path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// Runs a C call that returns -1 with errno on failure (EINTR retried), as a `SocketError` naming `call`.
    private static func check<Value: FixedWidthInteger>(_ call: String, path: String,
                                                        _ body: () -> Value) throws(SocketError) -> Value {
        try checked(call, path: path, retryingOnInterrupt(body))
    }

    /// The value of a call's result, or its failure as a `SocketError` naming `call`.
    private static func checked<Value>(_ call: String, path: String,
                                       _ result: Result<Value, Errno>) throws(SocketError) -> Value {
        switch result {
        case .success(let value): return value
        case .failure(let failure): throw .call(call, path: path, failure: failure)
        }
    }

    /// Gives the socket its file-system name. The corresponding C function is `bind`.
    static func bind(_ descriptor: FileDescriptor, path: String) throws(SocketError) {
        let result = try withAddress(path) { address, length in
            retryingOnInterrupt { Glibc.bind(descriptor.rawValue, address, length) }
        }
        _ = try checked("bind", path: path, result)
    }

    /// Lets clients connect, `backlog` of them waiting. The corresponding C function is `listen`.
    static func listen(_ descriptor: FileDescriptor, backlog: Int32, path: String) throws(SocketError) {
        _ = try check("listen", path: path) { Glibc.listen(descriptor.rawValue, backlog) }
    }

    /// The next waiting client, owned by the caller, or `nil` when none waits (the listener is non-blocking, or the
    /// client gave up before we took it). The corresponding C function is `accept`.
    static func accept(_ descriptor: FileDescriptor, path: String) throws(SocketError) -> FileDescriptor? {
        switch retryingOnInterrupt({ Glibc.accept(descriptor.rawValue, nil, nil) }) {
        case .success(let client): return FileDescriptor(owning: client)
        case .failure(let failure) where failure == .wouldBlock || failure == .connectionAborted: return nil
        case .failure(let failure): throw .call("accept", path: path, failure: failure)
        }
    }

    /// Bounds how long a blocking send, and a blocking connect to a Unix socket whose queue of waiting clients is
    /// full, may wait: after `milliseconds` the call fails with EAGAIN instead of waiting for a server that may be
    /// stopped. The corresponding C function is `setsockopt` with `SO_SNDTIMEO`.
    static func setSendTimeout(_ descriptor: FileDescriptor, milliseconds: Int32, path: String) throws(SocketError) {
        var limit = timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int(milliseconds % 1000) * 1000)
        _ = try check("setsockopt(SO_SNDTIMEO)", path: path) {
            setsockopt(descriptor.rawValue, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Connects `descriptor` to the socket at `path`. The corresponding C function is `connect`.
    static func connect(_ descriptor: FileDescriptor, path: String) throws(SocketError) {
        let result = try withAddress(path) { address, length in
            retryingOnInterrupt { Glibc.connect(descriptor.rawValue, address, length) }
        }
        _ = try checked("connect", path: path, result)
    }

    /// The user id of the process at the other end of a connected Unix socket, as the kernel recorded it at
    /// `connect` (it cannot be forged by the peer). The corresponding C function is `getsockopt` with
    /// `SO_PEERCRED`; `struct ucred` is three 32-bit fields (pid, uid, gid).
    static func peerUserID(_ descriptor: FileDescriptor, path: String) throws(SocketError) -> UInt32 {
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        _ = try check("getsockopt(SO_PEERCRED)", path: path) {
            getsockopt(descriptor.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        }
        return credentials.1
    }

    /// Makes reads and writes on `descriptor` return at once. The corresponding C function is `fcntl`.
    static func setNonBlocking(_ descriptor: FileDescriptor, path: String) throws(SocketError) {
        let flags = try check("fcntl(O_NONBLOCK)", path: path) { fcntl(descriptor.rawValue, F_GETFL) }
        _ = try check("fcntl(O_NONBLOCK)", path: path) { fcntl(descriptor.rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Reads what is there, up to `buffer.count` bytes: a closed descriptor or any error but "nothing yet" ends the
    /// connection. The corresponding C function is `read` (`FileDescriptor.read`).
    static func read(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        do {
            let count = try descriptor.read(into: buffer)
            return count > 0 ? .bytes(count) : .end
        } catch {
            return error == .wouldBlock ? .wouldBlock : .end
        }
    }

    /// Sends what the socket takes now, never raising SIGPIPE. The corresponding C function is `send` with
    /// `MSG_NOSIGNAL`.
    static func send(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
        guard !descriptor.isClosed else { return .end }
        switch retryingOnInterrupt({ Glibc.send(descriptor.rawValue, base, bytes.count, Int32(MSG_NOSIGNAL)) }) {
        case .success(let count): return .bytes(count)
        case .failure(let failure): return failure == .wouldBlock ? .wouldBlock : .end
        }
    }

    /// Opens (creating, mode 0600) the lock file beside a socket, never through a symbolic link; owned by the
    /// caller. The corresponding C function is `open` (`FileDescriptor.open`).
    static func openLockFile(_ path: String) throws(SocketError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, permissions: 0o600)
        } catch {
            throw .call("open", path: path, failure: error)
        }
    }

    /// Takes the exclusive lock on an open file without waiting; `false` when another process holds it. The kernel
    /// drops the lock when the holder exits, SIGKILL included: that is what makes a stale socket detectable. The
    /// corresponding C function is `flock`.
    static func tryLock(_ descriptor: FileDescriptor, path: String) throws(SocketError) -> Bool {
        switch retryingOnInterrupt({ flock(descriptor.rawValue, LOCK_EX | LOCK_NB) }) {
        case .success: return true
        case .failure(let failure) where failure == .wouldBlock: return false
        case .failure(let failure): throw .call("flock", path: path, failure: failure)
        }
    }

    /// Replaces a small file's contents (the pid in the lock file). The corresponding C functions are `ftruncate`
    /// and `pwrite`.
    static func replaceContents(_ descriptor: FileDescriptor, with text: String, path: String) throws(SocketError) {
        _ = try check("ftruncate", path: path) { ftruncate(descriptor.rawValue, 0) }
        let bytes = Array(text.utf8)
        let written = try check("pwrite", path: path) {
            bytes.withUnsafeBytes { pwrite(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
        }
        guard written == bytes.count else { throw .call("pwrite", path: path, failure: .noSpace) }
    }

    /// The first bytes of a small file (the pid in a lock file held by another process); empty when it cannot be
    /// read. The corresponding C function is `pread`.
    static func readSmallFile(_ descriptor: FileDescriptor) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let result = retryingOnInterrupt {
            buffer.withUnsafeMutableBytes { pread(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
        }
        guard case .success(let count) = result, count > 0 else { return "" }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// What sits at `path`, not following a symbolic link; `nil` when nothing does. The corresponding C function
    /// is `lstat`.
    static func fileStatus(_ path: String) throws(SocketError) -> stat? {
        var status = stat()
        switch retryingOnInterrupt({ lstat(path, &status) }) {
        case .success: return status
        case .failure(let failure) where failure == .noSuchFileOrDirectory: return nil
        case .failure(let failure): throw .call("lstat", path: path, failure: failure)
        }
    }

    /// Creates a folder with the given mode (the umask may narrow it; it never widens it). `false` when it existed.
    /// The corresponding C function is `mkdir`.
    static func makeDirectory(_ path: String, mode: mode_t) throws(SocketError) -> Bool {
        switch retryingOnInterrupt({ mkdir(path, mode) }) {
        case .success: return true
        case .failure(let failure) where failure == .fileExists: return false
        case .failure(let failure): throw .call("mkdir", path: path, failure: failure)
        }
    }

    /// Sets a file's permission bits. The corresponding C function is `chmod`.
    static func setMode(_ path: String, _ mode: mode_t) throws(SocketError) {
        _ = try check("chmod", path: path) { chmod(path, mode) }
    }

    /// Removes a name; a name already gone is fine. The corresponding C function is `unlink`.
    static func remove(_ path: String) throws(SocketError) {
        switch retryingOnInterrupt({ unlink(path) }) {
        case .success: return
        case .failure(let failure) where failure == .noSuchFileOrDirectory: return
        case .failure(let failure): throw .call("unlink", path: path, failure: failure)
        }
    }

    /// The effective user id of this process. The corresponding C function is `geteuid`.
    static var userID: UInt32 { geteuid() }

    /// This process's id. The corresponding C function is `getpid`.
    static var processID: Int32 { getpid() }
}
