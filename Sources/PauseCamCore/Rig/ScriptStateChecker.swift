/// Walks a script's steps through the recording states (idle → recording ⇄ paused → stopped) before anything
/// runs, so a script that pauses while paused, resumes while recording, records twice or goes on after `stop` is
/// rejected when the rig is checked, not half-way through a shoot.
struct ScriptStateChecker {
    enum State { case idle, recording, paused, stopped }
    private(set) var state = State.idle
    private(set) var hasRecorded = false

    /// Applies one step; returns what is wrong with it in the current state, or `nil`.
    mutating func apply(_ command: Command) -> String? {
        if state == .stopped { return "\"\(command.word)\" after \"stop\"; a script ends at its stop" }
        switch (command, state) {
        case (.record, .idle):
            state = .recording
            hasRecorded = true
        case (.record, _): return "record while already recording; use \"resume\" to begin a new scene"
        case (.pause, .recording): state = .paused
        case (.pause, .paused): return "pause while already paused"
        case (.pause, _): return "pause before record"
        case (.resume, .paused): state = .recording
        case (.resume, .recording): return "resume while recording (pause first)"
        case (.resume, _): return "resume before record"
        case (.stop, .recording), (.stop, .paused): state = .stopped
        case (.stop, _): return "stop before record"
        case (.toggle, .idle):
            state = .recording
            hasRecorded = true
        case (.toggle, .recording): state = .paused
        case (.toggle, .paused): state = .recording
        case (.chapter, .idle): return "chapter before record; `record NAME` names the first scene"
        case (.chapter, .paused): return "chapter while paused; `resume NAME` begins the new scene"
        case (.retake, .idle): return "retake before record; it throws away the scene being recorded"
        case (.retake, .paused): return "retake while paused; `resume`, then `retake` records the new scene again"
        case (.mark, .idle): return "mark before record; a mark belongs to a scene"
        case (.renameMarker, .idle): return "mark rename before record; it names a marker of the recording clip"
        default: break
        }
        return nil
    }
}
