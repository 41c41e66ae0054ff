#if canImport(Glibc)
import Glibc
#endif

/// The broker password, kept in a file of its own (like a Docker secret) so it never sits in the rig file, on a
/// command line or in a sidecar.
public enum MQTTPasswordFile {
    /// The longest password file read: a password is a line, and a path pointing at a movie by mistake is not read.
    static let maximumBytes = 4096

    /// The file's first line, without its line end (`\n` or `\r\n`). An empty first line is an error: a broker set up
    /// with credentials refuses an empty password, and the user meant to write one. The corresponding C functions
    /// is `open`.
    public static func read(path: String) throws(MQTTError) -> String {
        let opened = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard case .success(let number) = opened else {
            if case .failure(let failure) = opened { throw .passwordFile(path: path, reason: failure.message) }
            preconditionFailure("a Result is a success or a failure")
        }
        let file = FileDescriptor(owning: number)
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
