/// What became of the clip since the last `record`: one value, so "saved", "failed", "nothing recorded" and
/// "stopped by PauseCam" can never disagree. `record` sets it back to `.undecided`.
///
/// An interruption (PauseCam stopped the clip: a full disk, a failed write) is known before the clip is finished,
/// and stays with the outcome the finish brings, so a script that sees a clip saved also sees why it ended early.
public enum ClipOutcome: Sendable, Equatable {
    /// No clip has ended since the last `record` (or none was made yet in this session).
    case undecided
    /// PauseCam stopped the clip (`reason` says why, for the user); its finish is still to come.
    case interrupted(reason: String)
    /// The clip was finished: its movie, thumbnail and sidecar are written.
    case saved(Recorder.Clip, interruption: String?)
    /// The clip could not be finished (`reason`); its `.partial` holds the recording.
    case failed(reason: String, interruption: String?)
    /// The clip got no video frame at all and was not kept (no movie, `.partial` or sidecar).
    case nothingRecorded(interruption: String?)

    /// Why PauseCam stopped the clip, if it did; scripts end when they see it.
    public var interruption: String? {
        switch self {
        case .undecided: return nil
        case .interrupted(let reason): return reason
        case .saved(_, let interruption), .failed(_, let interruption), .nothingRecorded(let interruption):
            return interruption
        }
    }

    /// The clip saved, if the clip came to that.
    public var savedClip: Recorder.Clip? {
        if case .saved(let clip, _) = self { return clip }
        return nil
    }

    /// Why the clip could not be finished, if it could not.
    public var failure: String? {
        if case .failed(let reason, _) = self { return reason }
        return nil
    }

    /// The sentence for the user when the clip got no video frame; `nil` otherwise.
    public var nothingRecorded: String? {
        if case .nothingRecorded = self { return EngineEvent.nothingRecorded.text }
        return nil
    }
}
