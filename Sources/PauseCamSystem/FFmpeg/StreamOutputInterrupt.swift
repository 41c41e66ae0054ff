import CFFmpeg
import Foundation
import PauseCamCore

/// What lets libavformat's blocking network calls (connecting, a write to a receiver that stopped reading) give up:
/// an `AVIOInterruptCB` that answers "stop" once the output is closing or the current call's deadline has passed.
/// Read from libavformat's thread in the callback, set from the stream's thread and from `close()`.
final class StreamOutputInterrupt: @unchecked Sendable {
    private struct State {
        var closing = false
        /// Monotonic nanoseconds after which the call in progress is given up; `nil` while none is armed.
        var deadline: UInt64?
    }
    private let state = Guarded(State())

    /// The callback and its opaque pointer, for `AVFormatContext.interrupt_callback` and `avio_open2`. The pointer is
    /// unretained: the owner keeps this object alive as long as the context it is given to.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<StreamOutputInterrupt>.fromOpaque(opaque).takeUnretainedValue().shouldStop ? 1 : 0
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    var shouldStop: Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { $0.closing || ($0.deadline.map { now > $0 } ?? false) }
    }

    var isClosing: Bool { state.withLock { $0.closing } }

    /// The output is closing: every call in progress gives up.
    func close() { state.withLock { $0.closing = true } }

    /// Runs `body` with a deadline `seconds` from now.
    func within<T>(seconds: Double, _ body: () throws -> T) rethrows -> T {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        state.withLock { $0.deadline = deadline }
        defer { state.withLock { $0.deadline = nil } }
        return try body()
    }
}
