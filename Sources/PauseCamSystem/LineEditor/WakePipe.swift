/// Wakes a thread blocked in `poll` on the line reader's input: another thread (an engine event, a signal) writes
/// a byte, the reading thread sees the pipe readable and drains it. A pipe cannot lose a wake-up the way a flag
/// checked before blocking can.
final class WakePipe: @unchecked Sendable {
    /// The end to poll; -1 when the pipe could not be made (then reads only wake for input).
    let readEnd: Int32
    private let writeEnd: Int32

    init() {
        let fds = LineEditorSystemCalls.nonBlockingPipe()
        readEnd = fds?.read ?? -1
        writeEnd = fds?.write ?? -1
    }

    /// Callable from any thread; a full pipe already means "wake up", so a failed write is fine.
    func wake() {
        guard writeEnd >= 0 else { return }
        LineEditorSystemCalls.writeAll(writeEnd, [1])
    }

    /// Empties the pipe (it is non-blocking).
    func drain() {
        guard readEnd >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ LineEditorSystemCalls.read(readEnd, into: $0.baseAddress!, count: 64) }) > 0 {}
    }
}
