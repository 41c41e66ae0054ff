import Foundation

/// The end of a clip in `RigController`: after `stop` and its grace time the recorder is closed on the serial
/// context and the slow rest (encoder drain, remux, thumbnail, final sidecar) goes to the `ClipFinisher`'s worker.
/// The context is free at once; the "saved" event (or the failure) is told when the outcome is collected.
extension RigController {
    /// Hands a clip whose `stop` grace time has passed to the finisher (the serial context is free at once; a
    /// "saved" event follows); does nothing otherwise. Idempotent.
    public func finalizeIfStopping() {
        serialContext.assertOnSerialContext()
        guard let recorder, recorder.session.state == .stopping else { return }
        if !recorder.hasKeptVideo && recorder.failure == nil {
            self.recorder = nil
            intake.isOpen = false
            recorder.discard()
            nothingRecorded = EngineEvent.nothingRecorded.text
            notify(.nothingRecorded)
            return
        }
        // A slate due before the stop belongs in the clip (the last tick may have come before it was due).
        perform(bank.handle(.tick(now: serialContext.clock.now())))
        self.recorder = nil
        intake.isOpen = false
        let job = recorder.prepareFinish(stoppedAt: Self.iso8601(wallClock()))
        switch savedEvents {
        case .whenFinished:
            finisher.start(job) { [weak self, serialContext] in
                serialContext.schedule(at: .zero) { [weak self] in self?.collectFinishedClips() }
            }
        case .after(let delay):
            let path = job.moviePath
            finisher.start(job)
            serialContext.schedule(at: serialContext.clock.now() + delay) { [weak self] in
                guard let self else { return }
                self.finisher.waitUntilDone(path)
                self.collectFinishedClips(only: path)
            }
        }
        collectFinishedClips()
    }

    /// Takes in the clips the finisher is done with: each becomes `lastClip` (or `lastFailure`) and its event is
    /// told. Runs on the serial context when the worker posts, and when a caller waits for every finish.
    public func collectFinishedClips(only path: String? = nil) {
        serialContext.assertOnSerialContext()
        if path == nil, case .after = savedEvents { return }
        for outcome in finisher.collect(only: path) {
            switch outcome {
            case .saved(let clip, let timer):
                lastClip = clip
                let drops = clip.sidecar.devices.filter { ($0.dropped ?? 0) > 0 }
                    .map { ClipSavedEvent.MailboxDrop(role: $0.role, count: $0.dropped ?? 0) }
                notify(.clipSaved(ClipSavedEvent(moviePath: clip.moviePath, scenes: clip.sidecar.scenes.count,
                                                 duration: timer, droppedFrames: clip.sidecar.video.framesDropped,
                                                 mailboxDrops: drops)))
            case .failed(let moviePath, let reason, let partialKept):
                lastFailure = reason
                notify(.clipFailed(moviePath: moviePath, reason: reason, partialKept: partialKept))
            }
        }
    }

    /// The movies being finished now (callable from any thread).
    public var clipsBeingSaved: [String] { finisher.saving }

    /// Waits until every stopped clip is finished and its event told; call it off the serial context (the shell's
    /// quit, the end of `pausecam run`, a stop signal).
    public func waitForSavedClips() {
        finisher.waitUntilIdle()
        let collect = finisher.saving
        serialContext.perform { for path in collect { collectFinishedClips(only: path) } }
    }
}
