import Foundation
import PauseCamCore

/// The signals a `Shell` has received and not yet acted on: the one part of a shell that other threads reach (the
/// composition root's signal watcher). Each signal is queued, and whatever the shell's thread is doing is cut short
/// so that it looks at the queue: the running `wait` (the serial context's `advance`) while a command is busy, the
/// read of the next line otherwise. The shell's thread alone acts on the queue, so a recording is only ever
/// stopped from one place.
public final class ShellSignalInbox: Sendable {
    /// The queue and whether a command is running, under one lock: a signal knows what it interrupted.
    private struct State {
        var pending: [(signal: ExitGuard.Signal, busy: Bool)] = []
        var busy = false
    }

    private let state = Guarded(State())
    private let serialContext: any SerialContext
    private let interruptRead: @Sendable () -> Void

    /// An inbox that wakes a busy shell through `serialContext` and a reading one through `interruptRead`.
    init(serialContext: any SerialContext, interruptRead: @escaping @Sendable () -> Void) {
        self.serialContext = serialContext
        self.interruptRead = interruptRead
    }

    /// Queues `signal`, from any thread, and wakes the shell's thread. (A busy shell looks at the queue as soon as
    /// its command returns: cutting the next read short as well would only print an empty prompt.)
    public func receive(_ signal: ExitGuard.Signal) {
        let wasBusy = state.withLock { state -> Bool in
            state.pending.append((signal, busy: state.busy))
            return state.busy
        }
        if wasBusy { serialContext.interrupt() } else { interruptRead() }
    }

    /// True while signals wait to be acted on.
    var hasPending: Bool { state.withLock { !$0.pending.isEmpty } }

    /// The oldest signal, if any, without taking it.
    var oldest: ExitGuard.Signal? { state.withLock { $0.pending.first?.signal } }

    /// Takes the oldest signal, with whether a command was running when it came.
    func takeOldest() -> (signal: ExitGuard.Signal, busy: Bool)? {
        state.withLock { $0.pending.isEmpty ? nil : $0.pending.removeFirst() }
    }

    /// Says whether the shell's thread runs a command now (so a signal interrupts the wait, not the read).
    func setBusy(_ busy: Bool) {
        state.withLock { $0.busy = busy }
    }
}
