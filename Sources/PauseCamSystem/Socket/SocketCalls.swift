#if canImport(Glibc)
import Glibc
#endif

/// The C calls behind the control socket, one wrapper each, EINTR retried here; a failure is a `SocketError`
/// naming the call and the path. Descriptors returned are owned by the caller (`close`).
enum SocketCalls {
    /// What a non-blocking read or write did.
    enum Transfer: Equatable {
        case bytes(Int)
        case wouldBlock
        /// The peer closed its end (read) or went away (write: EPIPE, ECONNRESET).
        case end
    }

    /// A new Unix stream socket, close-on-exec. The corresponding C function is `socket`.
    static func streamSocket(path: String) throws(SocketError) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .call("socket", path: path, code: errno) }
        return descriptor
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

    /// Gives the socket its file-system name. The corresponding C function is `bind`.
    static func bind(_ descriptor: Int32, path: String) throws(SocketError) {
        let result = try withAddress(path) { Glibc.bind(descriptor, $0, $1) }
        guard result == 0 else { throw .call("bind", path: path, code: errno) }
    }

    /// Lets clients connect, `backlog` of them waiting. The corresponding C function is `listen`.
    static func listen(_ descriptor: Int32, backlog: Int32, path: String) throws(SocketError) {
        guard Glibc.listen(descriptor, backlog) == 0 else { throw .call("listen", path: path, code: errno) }
    }

    /// The next waiting client, or `nil` when none waits (the listener is non-blocking). The corresponding C function
    /// is `accept`.
    static func accept(_ descriptor: Int32, path: String) throws(SocketError) -> Int32? {
        while true {
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 { return client }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK, ECONNABORTED: return nil
            default: throw .call("accept", path: path, code: code)
            }
        }
    }

    /// Connects `descriptor` to the socket at `path`. The corresponding C function is `connect`.
    static func connect(_ descriptor: Int32, path: String) throws(SocketError) {
        let result = try withAddress(path) { Glibc.connect(descriptor, $0, $1) }
        guard result == 0 else { throw .call("connect", path: path, code: errno) }
    }

    /// The user id of the process at the other end of a connected Unix socket, as the kernel recorded it at
    /// `connect` (it cannot be forged by the peer). The corresponding C function is `getsockopt` with
    /// `SO_PEERCRED`; `struct ucred` is three 32-bit fields (pid, uid, gid).
    static func peerUserID(_ descriptor: Int32, path: String) throws(SocketError) -> UInt32 {
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        let result = getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        guard result == 0 else { throw .call("getsockopt(SO_PEERCRED)", path: path, code: errno) }
        return credentials.1
    }

    /// Makes reads and writes on `descriptor` return at once. The corresponding C function is `fcntl`.
    static func setNonBlocking(_ descriptor: Int32, path: String) throws(SocketError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .call("fcntl(O_NONBLOCK)", path: path, code: errno)
        }
    }

    /// Reads what is there, up to `count` bytes. The corresponding C function is `read`.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Transfer {
        while true {
            let result = Glibc.read(descriptor, buffer, count)
            if result > 0 { return .bytes(result) }
            if result == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .end
            }
        }
    }

    /// Sends what the socket takes now, never raising SIGPIPE. The corresponding C function is `send` with
    /// `MSG_NOSIGNAL`.
    static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
        while true {
            let result = Glibc.send(descriptor, base, bytes.count, Int32(MSG_NOSIGNAL))
            if result >= 0 { return .bytes(result) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .end
            }
        }
    }

    /// Waits until one of `descriptors` is ready or `timeout` milliseconds pass (-1: no limit); EINTR counts as
    /// "nothing ready". The corresponding C function is `poll`.
    static func poll(_ descriptors: inout [pollfd], timeout: Int32) {
        let result = descriptors.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
        if result < 0 { for index in descriptors.indices { descriptors[index].revents = 0 } }
    }

    /// Opens (creating, mode 0600) the lock file beside a socket, never through a symbolic link. The corresponding
    /// C function is `open`.
    static func openLockFile(_ path: String) throws(SocketError) -> Int32 {
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 { return descriptor }
            let code = errno
            if code != EINTR { throw .call("open", path: path, code: code) }
        }
    }

    /// Takes the exclusive lock on an open file without waiting; `false` when another process holds it. The kernel
    /// drops the lock when the holder exits, SIGKILL included: that is what makes a stale socket detectable. The
    /// corresponding C function is `flock`.
    static func tryLock(_ descriptor: Int32, path: String) throws(SocketError) -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            let code = errno
            switch code {
            case EINTR: continue
            case EWOULDBLOCK: return false
            default: throw .call("flock", path: path, code: code)
            }
        }
    }

    /// Replaces a small file's contents (the pid in the lock file). The corresponding C functions are `ftruncate`
    /// and `pwrite`.
    static func replaceContents(_ descriptor: Int32, with text: String, path: String) throws(SocketError) {
        guard ftruncate(descriptor, 0) == 0 else { throw .call("ftruncate", path: path, code: errno) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count else { throw .call("pwrite", path: path, code: errno) }
    }

    /// The first bytes of a small file (the pid in a lock file held by another process). The corresponding C
    /// function is `pread`.
    static func readSmallFile(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "" }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// What sits at `path`, not following a symbolic link; `nil` when nothing does. The corresponding C function
    /// is `lstat`.
    static func fileStatus(_ path: String) throws(SocketError) -> stat? {
        var status = stat()
        if lstat(path, &status) == 0 { return status }
        let code = errno
        if code == ENOENT { return nil }
        throw .call("lstat", path: path, code: code)
    }

    /// Creates a folder with the given mode (the umask may narrow it; it never widens it). `false` when it existed.
    /// The corresponding C function is `mkdir`.
    static func makeDirectory(_ path: String, mode: mode_t) throws(SocketError) -> Bool {
        if mkdir(path, mode) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        throw .call("mkdir", path: path, code: code)
    }

    /// Sets a file's permission bits. The corresponding C function is `chmod`.
    static func setMode(_ path: String, _ mode: mode_t) throws(SocketError) {
        guard chmod(path, mode) == 0 else { throw .call("chmod", path: path, code: errno) }
    }

    /// Removes a name; a name already gone is fine. The corresponding C function is `unlink`.
    static func remove(_ path: String) throws(SocketError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .call("unlink", path: path, code: errno) }
    }

    /// The effective user id of this process. The corresponding C function is `geteuid`.
    static var userID: UInt32 { geteuid() }

    /// This process's id. The corresponding C function is `getpid`.
    static var processID: Int32 { getpid() }

    /// Closes a descriptor this module opened (never retried on Linux). The corresponding C function is `close`.
    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }
}
