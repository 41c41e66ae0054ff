/// The pedal-friendly verbs, `toggle` and `chapter`: what one button (a foot pedal, a Stream Deck key, SIGUSR1, a
/// `pausecam ctl` line) can mean without knowing the state. Kept apart from `RigController.swift` so the two verbs
/// read as what they are: the existing state commands chosen by the state, not new engine behaviour.
extension RigController {
    /// `record` when no clip records (idle, or the last one is being finished), `pause` when recording, `resume`
    /// when paused. The reply is the chosen command's, prefixed with the word it chose, so a pedal user reading a
    /// log sees what the press did.
    func toggle(at time: MediaTime, from source: CommandSource?) -> Reply {
        let chosen: Command
        switch clips.recorder?.session.state {
        case .recording?: chosen = .pause
        case .paused?: chosen = .resume(name: nil)
        default: chosen = .record(name: nil, countdown: countdownSeconds(nil, source: source))
        }
        let reply = execute(chosen, at: time)
        return Reply(ok: reply.ok, message: "\(chosen.word): \(reply.message)")
    }

    /// A new scene without a pause: the session gives the frames captured from `time` on to the new scene, so the
    /// movie gets a chapter there while audio and video run on untouched.
    func chapter(name: String?, at time: MediaTime) -> Reply {
        guard clips.recorder != nil else { return .failed("not recording; `record NAME` begins the first scene") }
        return state(.chapter(name: name), at: time)
    }
}
