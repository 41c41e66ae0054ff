import Foundation

/// Where sidecars are written. The real one (PauseCamSystem) writes a temporary file and renames it over the old
/// sidecar, so a crash leaves either the previous or the new version, never a torn one.
///
/// `Sendable`: one store serves every clip, written on the finisher's worker (scene-boundary sidecars, final
/// sidecars, exports) and, where there is no worker, on the caller's thread.
public protocol SidecarStore: AnyObject, Sendable {
    /// Replaces the file at `path` with `data`, atomically.
    func write(_ data: Data, to path: String) throws

    /// Writes `data` to a file that did not exist: `stem + suffix`, else `stem-2 + suffix`… (`AddOnlyName`), and
    /// returns its path. Exports beside a movie go through here, so nothing is ever overwritten.
    func writeNew(_ data: Data, stem: String, suffix: String) throws -> String

    /// Removes the sidecar at `path`, if any: a clip that turned out to keep no frame (its only take thrown away by
    /// `retake`) leaves nothing on disk, like a clip that never got one.
    func remove(_ path: String)
}

extension SidecarStore {
    /// Stores that keep sidecars only (test fakes) write no other files.
    public func writeNew(_ data: Data, stem: String, suffix: String) throws -> String {
        throw ExportError("this sidecar store cannot write new files")
    }

    /// Stores that keep nothing on disk (test fakes) have nothing to remove.
    public func remove(_ path: String) {}
}
