/// Wakes a thread blocked in `poll` on the line reader's input: another thread (an engine event, a signal) writes
/// a byte, the reading thread sees the pipe readable and drains it. A pipe cannot lose a wake-up the way a flag
/// checked before blocking can. The pipe owns both its ends (closed with it).
final class WakePipe: Sendable {
    private let ends: (read: FileDescriptor, write: FileDescriptor)?

    init() {
        ends = try? FileDescriptor.pipe(nonBlocking: true)
    }

    /// The end to poll; -1 when the pipe could not be made (`poll` skips it: reads then only wake for input).
    var readEnd: Int32 { ends?.read.rawValue ?? -1 }

    /// Callable from any thread; a full pipe already means "wake up", so a failed write is fine.
    func wake() {
        guard let ends else { return }
        _ = withUnsafeBytes(of: UInt8(1)) { try? ends.write.write($0) }
    }

    /// Empties the pipe (it is non-blocking: the read that finds it empty fails with EAGAIN and ends the loop).
    func drain() {
        guard let ends else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while let n = buffer.withUnsafeMutableBytes({ try? ends.read.read(into: $0) }), n > 0 {}
    }
}
