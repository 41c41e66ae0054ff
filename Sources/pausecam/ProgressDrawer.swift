import Foundation
import PauseCamCore
import PauseCamSystem

/// Draws `ScriptRunner`'s progress as one line on standard error, rewritten in place (`\r`) and erased when the
/// wait ends — only on a terminal. Other messages call `clear()` first, so they never land inside the line.
final class ProgressDrawer: Sendable {
    /// The line and whether it is on the screen; held while it is drawn, so two draws never interleave.
    private struct Drawn {
        var line = ProgressLine(realClock: MonotonicClock())
        var shown = false
    }

    private let drawn = Guarded(Drawn())
    /// `pausecam run` measures speed over the whole script; the shell, per `wait` (it idles between them).
    private let measuresPerWait: Bool

    private init(measuresPerWait: Bool) { self.measuresPerWait = measuresPerWait }

    /// Where a drawer made after the wiring is found by the event printer made before it (any thread).
    final class Slot: Sendable {
        private let value = Guarded<ProgressDrawer?>(nil)
        var drawer: ProgressDrawer? {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    /// A drawer hooked to `runner`, or `nil` (nothing drawn) when `quiet` or standard error is not a terminal.
    static func install(on runner: ScriptRunner, quiet: Bool, measuresPerWait: Bool) -> ProgressDrawer? {
        guard !quiet, StandardErrorTerminal.isTerminal else { return nil }
        let drawer = ProgressDrawer(measuresPerWait: measuresPerWait)
        runner.progress = { [weak drawer] progress in drawer?.update(progress) }
        return drawer
    }

    /// Redraws the line for `progress`; `nil` (the wait ended) erases it.
    func update(_ progress: WaitProgress?) {
        drawn.withLock { drawn in
            guard let progress else {
                Self.erase(&drawn)
                if measuresPerWait { drawn.line.reset() }
                return
            }
            guard let text = drawn.line.text(for: progress) else { return }
            StandardStreamWriter.error.write("\r" + text + "\u{1B}[K")
            drawn.shown = true
        }
    }

    /// Erases the line, if shown, before another message is printed; the next update draws it again.
    func clear() {
        drawn.withLock { Self.erase(&$0) }
    }

    private static func erase(_ drawn: inout Drawn) {
        if drawn.shown { StandardStreamWriter.error.write("\r\u{1B}[K") }
        drawn.shown = false
    }
}
