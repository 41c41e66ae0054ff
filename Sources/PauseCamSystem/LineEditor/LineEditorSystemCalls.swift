#if canImport(Glibc)
import Glibc
#endif

/// The line readers' system calls on the standard streams, which the process owns and these readers only borrow
/// (`FileDescriptor(borrowing:)`), one wrapper each.
enum LineEditorSystemCalls {
    /// Writes all of `bytes` to `fd` (a terminal or pipe may take them in parts); gives up quietly on an error such
    /// as EPIPE — output to a vanished reader must not end a recording. The corresponding C function is `write`.
    static func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let result: Result<Int, Errno> = bytes.withUnsafeBytes { all in
                do throws(Errno) {
                    return .success(try fd.write(UnsafeRawBufferPointer(rebasing: all[offset...])))
                } catch { return .failure(error) }
            }
            guard case .success(let n) = result, n > 0 else { return }
            offset += n
        }
    }

    /// Waits until one of `fds` is readable (or hung up), or `timeout` milliseconds pass (-1: forever). Returns the
    /// `revents` of each descriptor, in order; a negative descriptor is skipped (never ready). The corresponding C
    /// function is `poll`.
    static func poll(_ fds: [Int32], timeout: Int32) -> [Int16] {
        (try? Poll.wait(fds, timeout: timeout).get()) ?? fds.map { _ in 0 }
    }

    /// Up to `count` bytes that `fd` has ready (one key, or one escape sequence, from a terminal in single-key
    /// mode); empty at end of input or on an error. The corresponding C function is `read`.
    static func read(_ fd: Int32, upTo count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let result: Result<Int, Errno> = bytes.withUnsafeMutableBytes { buffer in
            do throws(Errno) {
                return .success(try FileDescriptor(borrowing: fd).read(into: buffer))
            } catch { return .failure(error) }
        }
        guard case .success(let n) = result, n > 0 else { return [] }
        return Array(bytes[..<n])
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
