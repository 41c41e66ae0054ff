import Foundation
import PauseCamCore

extension AtomicSidecarStore {
    /// Gives up after this many names already taken (`NAME-100.edl`).
    static let maximumNewFileAttempts = ClipFileNames.maximumCounter

    /// Writes `data` to the first free `AddOnlyName` candidate, created with `O_EXCL|O_NOFOLLOW` and flushed, so
    /// an existing file (or a link planted there) is never opened, and two writers never take the same name.
    public func writeNew(_ data: Data, stem: String, suffix: String) throws -> String {
        try data.withUnsafeBytes { bytes throws(FileWriteError) -> String in
            for attempt in 1...Self.maximumNewFileAttempts {
                let candidate = AddOnlyName.candidate(stem: stem, suffix: suffix, attempt: attempt)
                do throws(FileWriteError) {
                    try NewFile.write(bytes, to: candidate, synchronize: true)
                    return candidate
                } catch where error.code == EEXIST {
                    continue
                }
            }
            throw FileWriteError("open", path: stem + suffix, code: EEXIST)
        }
    }
}
