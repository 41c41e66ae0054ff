import Foundation

/// Writes a file that did not exist, all or nothing: it is created with `O_EXCL|O_NOFOLLOW` (never an existing
/// file, never through a planted link), and if any step fails — a full disk half-way through, a failed flush or
/// close — the half-written file is removed, so no torn thumbnail or temporary sidecar is left behind.
enum NewFile {
    /// Creates `path` with `bytes`; with `synchronize`, flushes it to the disk before returning. Throws the failed
    /// call; `EEXIST` means something already sits at `path` (and was left alone).
    static func write(_ bytes: UnsafeRawBufferPointer, to path: String,
                      synchronize: Bool) throws(FileWriteError) {
        let descriptor = try FileSystemCalls.createNew(path)
        do throws(FileWriteError) {
            try FileSystemCalls.writeAll(descriptor, bytes, path: path)
            if synchronize { try FileSystemCalls.synchronize(descriptor, path: path) }
            try FileSystemCalls.close(descriptor, path: path)
        } catch {
            FileSystemCalls.remove(path)
            throw error
        }
    }
}
