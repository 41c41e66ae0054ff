import Foundation

/// Where sidecars are written. The real one (PauseCamSystem) writes a temporary file and renames it over the old
/// sidecar, so a crash leaves either the previous or the new version, never a torn one.
public protocol SidecarStore: AnyObject {
    /// Replaces the file at `path` with `data`, atomically.
    func write(_ data: Data, to path: String) throws
}
