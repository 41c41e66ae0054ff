/// Decides what an interruption of the shell does, so that no way out loses a recording: the first Ctrl-C during a
/// recording only asks, the second stops, saves and quits; SIGTERM and SIGHUP stop, save and quit at once; Ctrl-C
/// while a command runs (`wait`, `run SCRIPT`) stops that command and leaves the recording alone.
///
/// A state machine in the house style: the shell feeds it events and performs the returned action.
public struct ExitGuard: Sendable, Equatable {
    /// A signal the shell reacts to (the composition root maps the operating system's signals onto these).
    public enum Signal: Sendable, Equatable {
        /// SIGINT: Ctrl-C.
        case interrupt
        /// SIGTERM: asked to end.
        case terminate
        /// SIGHUP: the terminal went away.
        case hangUp

        /// The conventional exit status of a program ended by this signal (128 + its number).
        public var exitStatus: Int32 {
            switch self {
            case .interrupt: return 130
            case .terminate: return 143
            case .hangUp: return 129
            }
        }
    }

    /// What happened.
    public enum Event: Sendable, Equatable {
        /// A signal arrived. `recording` says whether a clip is recording or paused; `busy` whether a command that
        /// lets time pass (`wait`, `run`) was running when it arrived.
        case signal(Signal, recording: Bool, busy: Bool)
        /// The user typed a command: an earlier "press Ctrl-C again" no longer stands.
        case commandTyped
    }

    /// What the shell does about it.
    public enum Action: Sendable, Equatable {
        /// Nothing more (the interrupted command already said so).
        case none
        /// Tell the user this, and go on.
        case say(String)
        /// Say this, stop and save the clip if one is recording, and quit with this status.
        case stopAndQuit(message: String, status: Int32)
    }

    /// True after a first Ctrl-C during a recording.
    public private(set) var asked = false
    /// A person is at a terminal: Ctrl-C at an idle prompt only clears the line (as in any shell). When input is a
    /// pipe, Ctrl-C at idle quits.
    public let interactive: Bool

    public init(interactive: Bool) { self.interactive = interactive }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .commandTyped:
            asked = false
            return .none
        case .signal(.interrupt, let recording, let busy):
            if busy {
                return .say(recording ? "interrupted; the recording goes on" : "interrupted")
            }
            if recording {
                if asked {
                    return .stopAndQuit(message: "Ctrl-C again: stopping and saving the clip", status: 130)
                }
                asked = true
                return .say("still recording — press Ctrl-C again to stop, save and quit, or type stop")
            }
            return interactive ? .say("(type quit or press Ctrl-D to leave)")
                               : .stopAndQuit(message: "interrupted; quitting", status: 130)
        case .signal(.terminate, let recording, _):
            return .stopAndQuit(message: recording ? "SIGTERM: stopping and saving the clip" : "SIGTERM: quitting",
                                status: Signal.terminate.exitStatus)
        case .signal(.hangUp, let recording, _):
            return .stopAndQuit(message: recording ? "SIGHUP: the terminal closed; stopping and saving the clip"
                                                   : "SIGHUP: the terminal closed; quitting",
                                status: Signal.hangUp.exitStatus)
        }
    }
}
