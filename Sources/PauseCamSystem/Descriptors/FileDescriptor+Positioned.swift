#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// Reads up to `count` bytes at `offset` without moving the file position; fewer only at the end of the file.
    /// The corresponding C function is `pread`.
    func read(count: Int, at offset: Int64) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { pread(rawValue, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            }
            let got = try result.get()
            if got == 0 { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }

    /// Writes all of `bytes` at `offset` without moving the file position. The corresponding C function is `pwrite`.
    func write(_ bytes: [UInt8], at offset: Int64) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { pwrite(rawValue, buffer.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            }
            done += try result.get()
        }
    }
}
