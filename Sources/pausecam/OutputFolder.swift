import Foundation
import PauseCamCore

/// The folder movies go to, made ready before anything records: created when missing, and refused with a plain
/// reason when it is a file, sits under a file, or cannot be created or written — so a failing output folder ends
/// `pausecam run` at once with that reason, not with a cryptic error at the first `record`.
enum OutputFolder {
    /// Why the folder cannot be used; exit status 1.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Creates `path` (and its parents) if needed and checks that it can be written.
    static func prepare(_ path: String) throws {
        let advice = "choose a folder you can write with --output (or the rig's output.directory)"
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw Problem(description: "the output folder \(path) is a file, not a folder; \(advice)")
            }
        } else {
            // The nearest existing parent says why a folder cannot be made under it.
            var parent = PathText.folder(of: path)
            while !parent.isEmpty && parent != "/" && !manager.fileExists(atPath: parent) {
                parent = PathText.folder(of: parent)
            }
            if !parent.isEmpty, manager.fileExists(atPath: parent, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw Problem(description: "cannot create the output folder \(path): \(parent) is a file, not a "
                              + "folder; \(advice)")
            }
            do {
                try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw Problem(description: "cannot create the output folder \(path): \(reason(error)); \(advice)")
            }
        }
        guard manager.isWritableFile(atPath: path) else {
            throw Problem(description: "the output folder \(path) cannot be written (no permission, or a read-only "
                          + "file system); \(advice)")
        }
    }

    /// Why `path` (expanded) cannot take movies now, found without creating anything: it is a file, sits under a
    /// file, its nearest existing folder cannot be written (so it cannot be created), or it cannot be written;
    /// `nil` when it is a writable folder or can be made as one. `check` warns with this; `run` and `shell`
    /// refuse a rig's folder for it before opening any device.
    static func problem(_ path: String) -> String? {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "the output folder \(path) is a file, not a folder" }
            return manager.isWritableFile(atPath: path) ? nil
                : "the output folder \(path) cannot be written (no permission, or a read-only file system)"
        }
        var parent = PathText.folder(of: path)
        while !parent.isEmpty && parent != "/" && !manager.fileExists(atPath: parent) {
            parent = PathText.folder(of: parent)
        }
        if parent.isEmpty { return nil }
        guard manager.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "cannot create the output folder \(path): \(parent) is a file, not a folder"
        }
        return manager.isWritableFile(atPath: parent) ? nil
            : "cannot create the output folder \(path): \(parent) cannot be written (no permission, or a read-only "
              + "file system)"
    }

    /// The operating system's reason (`No such file or directory`), not Foundation's wrapper text.
    private static func reason(_ error: Error) -> String {
        let wrapped = error as NSError
        // On Linux the underlying error is a Swift `POSIXError`, which `as? NSError` does not match.
        let underlying = (wrapped.userInfo[NSUnderlyingErrorKey] as? Error).map { $0 as NSError } ?? wrapped
        return underlying.localizedDescription
            .replacingOccurrences(of: "The operation could not be completed. ", with: "")
    }
}
