import Foundation
import PauseCamCore
import PauseCamShell
import PauseCamSystem

/// Keeps an interactive shell's terminal title on the recording's state (`TerminalTitle`) while it records or is
/// paused, checked four times a second on its own queue; `stop()` sets the title back to empty once a tally was
/// shown. Only made for a terminal: a piped shell's output is a transcript.
/// Unchecked Sendable: `shown` is touched only on `queue`.
final class TerminalTally: @unchecked Sendable {
    private let queue = DispatchQueue(label: "pausecam.terminal-tally")
    private let timer: DispatchSourceTimer
    private let status: @Sendable () -> (Session.State, MediaTime)
    private var shown: String?

    /// Starts watching `status` (the session's state and timer, read on the caller's serial context).
    init(status: @escaping @Sendable () -> (Session.State, MediaTime)) {
        self.status = status
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.refresh() }
        timer.resume()
    }

    private func refresh() {
        let (state, clock) = status()
        let title = TerminalTitle.text(state: state, timer: clock)
        guard title != shown else { return }
        // Back to idle: the title is emptied, as at exit.
        StandardStreamWriter.output.write(TerminalTitle.sequence(title ?? ""))
        shown = title
    }

    /// Stops watching and empties the title if a tally was shown.
    func stop() {
        timer.cancel()
        queue.sync {
            if shown != nil { StandardStreamWriter.output.write(TerminalTitle.sequence("")) }
            shown = nil
        }
    }
}
