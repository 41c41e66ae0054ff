import Foundation
import PauseCamCore

/// Writes sidecars atomically: the new text goes to a temporary file in the same folder, is flushed, and is
/// renamed over the old one, then the folder itself is flushed (so the rename, too, survives a power cut). A crash
/// at any moment leaves a complete sidecar, the old or the new.
///
/// The temporary file is `NAME.json.tmp`, created with `O_EXCL|O_NOFOLLOW`: a file or a symbolic link already
/// sitting there (a leftover of a crash, or planted to make PauseCam write through it) is never opened; the next
/// name (`NAME.json.tmp-2`, …) is used instead, and the intruder is left alone.
public final class AtomicSidecarStore: SidecarStore {
    /// Gives up after this many temporary names already taken.
    static let maximumAttempts = ClipFileNames.maximumTemporaryCounter

    public init() {}

    /// Unlinks the sidecar; a missing file is not an error.
    public func remove(_ path: String) {
        _ = path.withCString { unlink($0) }
    }

    public func write(_ data: Data, to path: String) throws {
        let temporary = try data.withUnsafeBytes { bytes throws(FileWriteError) -> String in
            for attempt in 1...Self.maximumAttempts {
                let candidate = ClipFileNames.counted(path + ClipFileNames.temporarySuffix, attempt: attempt)
                do throws(FileWriteError) {
                    try NewFile.write(bytes, to: candidate, synchronize: true)
                    return candidate
                } catch where error.code == EEXIST {
                    continue
                }
            }
            throw FileWriteError("open", path: path + ClipFileNames.temporarySuffix, code: EEXIST)
        }
        do throws(FileWriteError) {
            try FileSystemCalls.rename(temporary, to: path)
        } catch {
            FileSystemCalls.remove(temporary)
            throw error
        }
        try Self.synchronizeFolder(of: path)
    }

    /// Flushes the folder holding `path`, which makes the rename itself durable. The corresponding C calls are
    /// `open(O_DIRECTORY)` and `fsync`.
    static func synchronizeFolder(of path: String) throws(FileWriteError) {
        let folder = PathText.folder(of: path)
        let directory = folder.isEmpty ? "." : folder
        let descriptor = try FileSystemCalls.openDirectory(directory)
        try FileSystemCalls.synchronize(descriptor, path: directory)
    }
}
