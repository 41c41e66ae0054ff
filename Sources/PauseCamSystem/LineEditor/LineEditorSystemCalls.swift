#if canImport(Glibc)
import Glibc
#endif

/// The line readers' system calls, one wrapper each, with EINTR retried here and nowhere else.
enum LineEditorSystemCalls {
    /// Reads up to `count` bytes from `fd`; 0 at end of input; -1 with `errno` on error. The corresponding C
    /// function is `read`.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    /// Writes all of `bytes` to `fd` (a terminal or pipe may take them in parts); gives up quietly on an error such
    /// as EPIPE — output to a vanished reader must not end a recording. The corresponding C function is `write`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Waits until one of `fds` is readable (or hung up), or `timeout` milliseconds pass (-1: forever). Returns the
    /// `revents` of each descriptor, in order. The corresponding C function is `poll`.
    static func poll(_ fds: [Int32], timeout: Int32) -> [Int16] {
        var set = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let n = set.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
            if n < 0 && errno == EINTR { continue }
            return set.map(\.revents)
        }
    }

    /// A pipe whose ends do not block and are closed on exec. The corresponding C functions are `pipe` and
    /// `fcntl` (`pipe2` needs `_GNU_SOURCE`, which the module does not define).
    static func nonBlockingPipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard fds.withUnsafeMutableBufferPointer({ pipe($0.baseAddress) }) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    /// True when `fd` is a terminal. The corresponding C function is `isatty`.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Creates `path` and its parents as directories (0700: history is private). The corresponding C function is
    /// `mkdir`.
    static func makeDirectories(_ path: String) {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            _ = mkdir(prefix, 0o700)
        }
    }
}
