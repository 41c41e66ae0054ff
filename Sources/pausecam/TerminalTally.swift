import Foundation
import PauseCamCore
import PauseCamShell
import PauseCamSystem

/// Keeps an interactive shell's terminal title on the recording's state (`TerminalTitle`) while it records or is
/// paused, checked four times a second on its own queue; `stop()` sets the title back to empty once a tally was
/// shown. Only made for a terminal: a piped shell's output is a transcript.
final class TerminalTally: Sendable {
    private let queue = DispatchQueue(label: "pausecam.terminal-tally")
    /// Cancelled by `stop()` from the shell's thread. Dispatch sources are thread-safe, but not declared `Sendable`.
    private let timer: Guarded<DispatchSourceTimer>
    private let status: @Sendable () -> (Session.State, MediaTime, Int?)
    /// The title shown; used on `queue` (the lock is never contended).
    private let shown = Guarded<String?>(nil)

    /// Starts watching `status` (the session's state, timer and countdown, read on the caller's serial context).
    init(status: @escaping @Sendable () -> (Session.State, MediaTime, Int?)) {
        self.status = status
        let timer = DispatchSource.makeTimerSource(queue: queue)
        self.timer = Guarded(timer)
        self.timer.withLock { timer in
            timer.schedule(deadline: .now(), repeating: .milliseconds(250))
            timer.setEventHandler { [weak self] in self?.refresh() }
            timer.resume()
        }
    }

    private func refresh() {
        let (state, clock, countdown) = status()
        let title = TerminalTitle.text(state: state, timer: clock, countdown: countdown)
        shown.withLock { shown in
            guard title != shown else { return }
            // Back to idle: the title is emptied, as at exit.
            StandardStreamWriter.output.write(TerminalTitle.sequence(title ?? ""))
            shown = title
        }
    }

    /// Stops watching and empties the title if a tally was shown.
    func stop() {
        timer.withLock { $0.cancel() }
        queue.sync {
            shown.withLock { shown in
                if shown != nil { StandardStreamWriter.output.write(TerminalTitle.sequence("")) }
                shown = nil
            }
        }
    }
}
