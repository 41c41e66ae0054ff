import Foundation
import PauseCamCore

/// Writes sidecars atomically: the new text goes to a temporary file in the same folder, is flushed, and is
/// renamed over the old one, so a crash at any moment leaves a complete sidecar (the old or the new).
public final class AtomicSidecarStore: SidecarStore {
    public init() {}

    public func write(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.synchronize()
        try handle.close()
        if rename(temporary, path) != 0 {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path,
                                                          NSLocalizedDescriptionKey: "rename: \(message)"])
        }
    }
}
