#if canImport(Glibc)
import Glibc
#endif

/// The broker password, kept in a file of its own (like a Docker secret) so it never sits in the rig file, on a
/// command line or in a sidecar.
public enum MQTTPasswordFile {
    /// The longest password file read: a password is a line, and a path pointing at a movie by mistake is not read.
    static let maximumBytes = 4096

    /// The file's first line, without its line end (`\n` or `\r\n`). An empty first line is an error: a broker set up
    /// with credentials refuses an empty password, and the user meant to write one. Only a regular file is read:
    /// the path is looked at with `stat` before it is opened, since opening a named pipe waits for a writer (the
    /// member's start would hang), and opened without blocking and looked at again, for a path replaced between
    /// the two. The corresponding C functions are `stat`, `open` and `fstat`.
    public static func read(path: String) throws(MQTTError) -> String {
        var info = stat()
        if stat(path, &info) == 0, let kind = RigFileReader.nonRegularKind(info.st_mode) {
            throw .passwordFile(path: path, reason: "it is \(kind), not a regular file")
        }
        let opened = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard case .success(let number) = opened else {
            if case .failure(let failure) = opened { throw .passwordFile(path: path, reason: failure.message) }
            preconditionFailure("a Result is a success or a failure")
        }
        let file = FileDescriptor(owning: number)
        if fstat(file.rawValue, &info) == 0, let kind = RigFileReader.nonRegularKind(info.st_mode) {
            throw .passwordFile(path: path, reason: "it is \(kind), not a regular file")
        }
        var bytes = [UInt8](repeating: 0, count: maximumBytes)
        var filled = 0
        while filled < bytes.count {
            let result: Result<Int, Errno> = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) }
            }
            let count: Int
            switch result {
            case .success(let read): count = read
            case .failure(let failure): throw .passwordFile(path: path, reason: failure.message)
            }
            if count == 0 { break }
            filled += count
        }
        let text = String(decoding: bytes[..<filled], as: UTF8.self)
        let firstLine = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        guard !firstLine.isEmpty else { throw .passwordFile(path: path, reason: "its first line is empty") }
        return String(firstLine)
    }
}
