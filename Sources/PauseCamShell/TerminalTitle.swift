import PauseCamCore

/// The terminal window's title while a shell records or is paused — a tally for a window that is not in front:
/// `● REC 00:01:23`, `‖ PAUSED 00:01:23` (the clip's timer in whole seconds), and `REC in 3…` while the countdown
/// before a clip runs. Set with OSC 2 (`ESC ] 2 ; text BEL`),
/// which xterm, VTE terminals and tmux (`#{pane_title}`) read.
public enum TerminalTitle {
    /// The title for `state` with the clip's `timer`, or nil when there is nothing to show (idle, finished);
    /// `countdown`, the seconds left before a clip starts, is shown while it counts (the state is still idle).
    public static func text(state: Session.State, timer: MediaTime, countdown: Int? = nil) -> String? {
        if let countdown, state == .idle || state == .finished { return "REC in \(countdown)…" }
        let clock = String(DurationParser.clockString(timer).prefix { $0 != "." })
        switch state {
        case .recording: return "● REC \(clock)"
        case .paused: return "‖ PAUSED \(clock)"
        case .stopping: return "… SAVING \(clock)"
        case .idle, .finished: return nil
        }
    }

    /// The escape sequence that sets the window title to `text`; control characters are left out so the title
    /// cannot end the sequence early.
    public static func sequence(_ text: String) -> String {
        let clean = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        return "\u{1B}]2;\(clean)\u{07}"
    }
}
