#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PauseCamCore

/// The output folder as a session would find it, looked at without creating anything: whether it exists, is a
/// folder, can be written (or created in its nearest existing parent), and the free space there.
enum OutputFolderInspection {
    static func inspect(_ path: String, policy: StoragePolicy) -> DoctorFacts.OutputFolder {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let state: DoctorFacts.OutputFolderState
        var measured = path
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            if !isDirectory.boolValue {
                state = .isAFile
            } else {
                state = writable(path).map { .notWritable(path: path, reason: $0) } ?? .writable
            }
        } else {
            var parent = PathText.folder(of: path)
            while !parent.isEmpty && parent != "/" && !manager.fileExists(atPath: parent) {
                parent = PathText.folder(of: parent)
            }
            if parent.isEmpty { parent = "." }
            measured = parent
            if manager.fileExists(atPath: parent, isDirectory: &isDirectory), !isDirectory.boolValue {
                state = .underAFile(parent: parent)
            } else {
                state = writable(parent).map { .notWritable(path: parent, reason: $0) } ?? .willBeCreated(parent: parent)
            }
        }
        return DoctorFacts.OutputFolder(path: path, state: state,
                                        availableBytes: FileSystemStorageProbe().availableBytes(at: measured),
                                        warnBelow: policy.warnBelow, stopBelow: policy.stopBelow,
                                        lastClip: state == .writable ? NewestClipRate.find(in: path) : nil)
    }

    /// `nil` when this process may write into `path`, else the system's reason ("Permission denied",
    /// "Read-only file system"). The corresponding C function is `access`.
    static func writable(_ path: String) -> String? {
        guard access(path, W_OK | X_OK) != 0 else { return nil }
        return Errno(rawValue: errno).message
    }
}
