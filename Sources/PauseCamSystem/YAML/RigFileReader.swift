#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// Reads a rig file's bytes for `RigLoader`, saying in the user's terms why a path cannot be a rig: missing, a
/// folder, a device, a pipe, unreadable, or too large. The path is checked with `stat` before anything is opened,
/// so naming `/dev/zero` or a camera's node never opens the device or reads forever, and a file over the size limit
/// is refused before a byte of it is read.
///
/// Every failure is a `RigError` at line 0 (printed `FILE: message`), because it concerns the whole file.
enum RigFileReader {
    /// The bytes of the regular file at `path`, at most `limit` of them (a larger file is the size error).
    static func read(_ path: String, limit: Int) throws(RigError) -> [UInt8] {
        let info: stat
        switch status(of: path) {
        case .success(let s): info = s
        case .failure(let e): throw problem(path, reasonForStatus(e))
        }
        if let kind = nonRegularKind(info.st_mode) {
            throw problem(path, "it is \(kind), not a regular file; give the path of a rig's .yaml file")
        }
        if Int(info.st_size) > limit { throw YAMLParser.tooLarge(file: path, size: Int(info.st_size)) }

        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC) } catch {
            throw problem(path, reasonForOpen(error))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size) + 1)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result: Result<Int, Errno> = chunk.withUnsafeMutableBytes { buffer in
                do throws(Errno) { return .success(try file.read(into: buffer)) } catch { return .failure(error) }
            }
            let count: Int
            switch result {
            case .success(let n): count = n
            case .failure(let error): throw problem(path, "reading failed: \(error.message)")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            // The file may have grown since `stat`: the limit holds for what is actually read.
            if bytes.count > limit { throw YAMLParser.tooLarge(file: path, size: bytes.count) }
        }
        return bytes
    }

    // MARK: Messages

    private static func problem(_ path: String, _ reason: String) -> RigError {
        RigError("cannot read the rig file: \(reason)", at: SourceMark(file: path, line: 0, column: 0))
    }

    /// What a file type is, in words, for anything that is not a regular file; `nil` for a regular file.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }

    private static func reasonForStatus(_ error: Errno) -> String {
        switch error {
        case .noSuchFileOrDirectory: return "no such file; check the name and the folder"
        case .notDirectory: return "a part of the path is a file, not a folder; check the path"
        case .permissionDenied:
            return "permission denied: a folder on the path cannot be searched (check it with ls -ld)"
        default: return error.message
        }
    }

    private static func reasonForOpen(_ error: Errno) -> String {
        switch error {
        case .permissionDenied, .notPermitted: return "you do not have permission to read it (check it with ls -l)"
        default: return error.message
        }
    }

    // MARK: System calls

    /// The file's type and size, following symbolic links. The corresponding C function is `stat`.
    private static func status(of path: String) -> Result<stat, Errno> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(Errno.current) }
        return .success(info)
    }
}
