#if canImport(Glibc)
import Glibc
#endif

/// The file-system calls behind PauseCam's own small files, one wrapper each over `FileDescriptor` (which retries
/// EINTR); a failure is a `FileWriteError` naming the call and the path.
enum FileSystemCalls {
    /// Creates `path` for writing, only if nothing sits there: `O_EXCL` never opens an existing file and
    /// `O_NOFOLLOW` (implied by `O_EXCL` for the last component, and said here so no one drops it) never follows a
    /// planted symbolic link. The corresponding C function is `open`.
    static func createNew(_ path: String, permissions: mode_t = 0o644) throws(FileWriteError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                           permissions: permissions)
        } catch { throw FileWriteError("open", path: path, errno: error) }
    }

    /// Opens the folder `path` so that it can be flushed (`synchronize`). The corresponding C function is `open`
    /// with `O_DIRECTORY`.
    static func openDirectory(_ path: String) throws(FileWriteError) -> FileDescriptor {
        do {
            return try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        } catch { throw FileWriteError("open", path: path, errno: error) }
    }

    /// Writes all of `bytes` (a file may take them in parts). The corresponding C function is `write`.
    static func writeAll(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer,
                         path: String) throws(FileWriteError) {
        do { try descriptor.writeAll(bytes) } catch { throw FileWriteError("write", path: path, errno: error) }
    }

    /// Flushes a file's (or a folder's) data and metadata to the disk. The corresponding C function is `fsync`.
    static func synchronize(_ descriptor: FileDescriptor, path: String) throws(FileWriteError) {
        do { try descriptor.synchronize() } catch { throw FileWriteError("fsync", path: path, errno: error) }
    }

    /// Closes a file this module wrote, reporting what `close` says: on some file systems a full disk or an I/O
    /// error first shows there. The corresponding C function is `close`.
    static func close(_ descriptor: FileDescriptor, path: String) throws(FileWriteError) {
        do { try descriptor.close() } catch { throw FileWriteError("close", path: path, errno: error) }
    }

    /// Atomically replaces `destination` with `source` (same file system). The corresponding C function is `rename`.
    static func rename(_ source: String, to destination: String) throws(FileWriteError) {
        if case .failure(let error) = retryingOnInterrupt({ Glibc.rename(source, destination) }) {
            throw FileWriteError("rename", path: destination, errno: error)
        }
    }

    /// Cuts the file at `path` back to its first `length` bytes. The corresponding C function is `truncate`.
    static func truncate(_ path: String, to length: Int64) throws(FileWriteError) {
        if case .failure(let error) = retryingOnInterrupt({ Glibc.truncate(path, off_t(length)) }) {
            throw FileWriteError("truncate", path: path, errno: error)
        }
    }

    /// Removes a file this module created and failed to finish; a failure leaves nothing more to do. The
    /// corresponding C function is `unlink`.
    static func remove(_ path: String) {
        _ = unlink(path)
    }
}
