#if canImport(Glibc)
import Glibc
#endif

/// The file-system calls behind PauseCam's own small files, one wrapper each, EINTR retried here; a failure is a
/// `FileWriteError` naming the call and the path.
enum FileSystemCalls {
    /// Creates `path` for writing, only if nothing sits there: `O_EXCL` never opens an existing file and
    /// `O_NOFOLLOW` (implied by `O_EXCL` for the last component, and said here so no one drops it) never follows a
    /// planted symbolic link. The caller owns the descriptor (`close`). The corresponding C function is `open`.
    static func createNew(_ path: String, permissions: mode_t = 0o644) throws(FileWriteError) -> Int32 {
        while true {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
            if descriptor >= 0 { return descriptor }
            let code = errno
            if code != EINTR { throw FileWriteError("open", path: path, code: code) }
        }
    }

    /// Opens the folder `path` so that it can be flushed (`synchronize`). The caller owns the descriptor. The
    /// corresponding C function is `open` with `O_DIRECTORY`.
    static func openDirectory(_ path: String) throws(FileWriteError) -> Int32 {
        while true {
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if descriptor >= 0 { return descriptor }
            let code = errno
            if code != EINTR { throw FileWriteError("open", path: path, code: code) }
        }
    }

    /// Writes all of `bytes` (a file may take them in parts). The corresponding C function is `write`.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileWriteError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            if code != EINTR { throw FileWriteError("write", path: path, code: code) }
        }
    }

    /// Flushes a file's (or a folder's) data and metadata to the disk. The corresponding C function is `fsync`.
    static func synchronize(_ descriptor: Int32, path: String) throws(FileWriteError) {
        while fsync(descriptor) != 0 {
            let code = errno
            if code != EINTR { throw FileWriteError("fsync", path: path, code: code) }
        }
    }

    /// Closes a descriptor this module opened. On Linux the descriptor is gone even when `close` reports EINTR,
    /// so it is never retried; a failure to report has already been caught by `synchronize` where it matters. The
    /// corresponding C function is `close`.
    static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    /// Atomically replaces `destination` with `source` (same file system). The corresponding C function is `rename`.
    static func rename(_ source: String, to destination: String) throws(FileWriteError) {
        while Glibc.rename(source, destination) != 0 {
            let code = errno
            if code != EINTR { throw FileWriteError("rename", path: destination, code: code) }
        }
    }

    /// Removes a file this module created and failed to finish; a failure leaves nothing more to do. The
    /// corresponding C function is `unlink`.
    static func remove(_ path: String) {
        _ = unlink(path)
    }
}
