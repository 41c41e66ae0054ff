import Foundation

/// The end of a clip in `RigController`: after `stop` and its grace time the intake closes and the
/// `ClipController` ends the clip — discarded when it got no video, else closed on the serial context and finished
/// on a worker. The context is free at once; the "saved" event (or the failure) is told when the outcome is
/// collected.
extension RigController {
    /// Hands a clip whose `stop` grace time has passed to the finisher (the serial context is free at once; a
    /// "saved" event follows); does nothing otherwise. Idempotent.
    public func finalizeIfStopping() {
        serialContext.assertOnSerialContext()
        guard let recorder = clips.recorder, recorder.session.state == .stopping else { return }
        if !recorder.hasKeptVideo && recorder.failure == nil {
            setClipIntake(false)
            clips.discardEmpty()
            return
        }
        // A slate due before the stop belongs in the clip (the last tick may have come before it was due).
        perform(bank.handle(.tick(now: serialContext.clock.now())))
        setClipIntake(false)
        // The voices' sound still waiting for a late card belongs in the clip too.
        flushVoices()
        clips.finish()
    }

    /// Takes in the clips the finisher is done with: each becomes the outcome and its event is told.
    public func collectFinishedClips(only path: String? = nil) {
        clips.collectFinishedClips(only: path)
    }

    /// The movies being finished now (callable from any thread).
    public var clipsBeingSaved: [String] { clips.clipsBeingSaved }

    /// Waits until every stopped clip is finished and its event told; call it off the serial context (the shell's
    /// quit, the end of `pausecam run`, a stop signal).
    public func waitForSavedClips() {
        clips.waitForSavedClips()
    }
}
