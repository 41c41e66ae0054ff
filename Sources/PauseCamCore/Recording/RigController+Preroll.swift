import Foundation

/// `preroll:` in `RigController`: while no scene records, the samples the recorder would have been handed are kept
/// in a `PrerollRing`; `record` and `resume` begin their scene `PrerollPolicy`'s edge before the press and hand the
/// kept samples from there to the recorder through its ordinary entry points, before any newer one. The recorder
/// sees what it would have seen had the command been given at the edge: its one offset grows by a shorter gap.
extension RigController {
    /// Opens the devices' intake for good: a rig with a preroll keeps samples while idle, so its cameras and
    /// microphone deliver from start to quit.
    func startPreroll() {
        guard rig.preroll != nil else { return }
        setClipIntake(clips.recorder != nil)
    }

    /// A frame after the bank and the switcher (`routed` when it is the program's): true when the preroll took it
    /// (kept, or queued behind a scene still catching up), false when the recorder is to get it as usual.
    func prerollTakes(frame: VideoFrame, routed: VideoFrame?) -> Bool {
        guard prerollState != nil else { return false }
        let iso = rig.output.iso.contains(frame.lens)
        guard routed != nil || iso else { return false }
        return prerollTakes(.video(frame, program: routed, iso: iso))
    }

    /// Sound as the recorder takes it: true when the preroll took it (see `prerollTakes(frame:routed:)`).
    func prerollTakes(sound chunk: AudioChunk) -> Bool {
        guard prerollState != nil else { return false }
        return prerollTakes(.audio(chunk))
    }

    private func prerollTakes(_ sample: PrerollRing.Sample) -> Bool {
        if prerollState!.isCatchingUp {
            prerollState!.queue(sample)
            return true
        }
        guard let recorder = clips.recorder else {
            keepForPreroll(sample)
            return true
        }
        switch recorder.session.state {
        case .recording:
            return false
        case .paused:
            // Captured before the pause: the scene it belongs to takes it (sound straddling the pause: both).
            let pausedAt = recorder.session.pauses.last?.began ?? sample.pts
            if sample.pts < pausedAt && sample.end <= pausedAt { return false }
            keepForPreroll(sample)
            return sample.pts >= pausedAt
        case .idle, .stopping, .finished:
            // The stopping clip still takes what was captured before its stop; the next clip may reach back to it.
            keepForPreroll(sample)
            return false
        }
    }

    private func keepForPreroll(_ sample: PrerollRing.Sample) {
        prerollState!.ring.keep(sample)
    }

    /// Why `record --preroll` cannot be carried out here, if it cannot: nothing is kept without the rig's
    /// `preroll:`, and no more than its length.
    func prerollRefusal(_ asked: MediaTime?) -> String? {
        guard let asked, asked > .zero else { return nil }
        guard let state = prerollState else {
            return "this rig keeps no preroll; add preroll: \(CommandParser.formatDuration(asked)) to the rig to reach "
                + "back before the press"
        }
        guard asked <= state.ring.length else {
            return "the rig keeps \(CommandParser.formatDuration(state.ring.length)) of preroll (preroll:); "
                + "--preroll can ask for that or less"
        }
        return nil
    }

    /// The capture time a `record` pressed at `press` begins at (the press itself without a preroll); `asked` is
    /// `record --preroll`, which holds for the clip's resumes too.
    func prerollRecordEdge(press: MediaTime, asked: MediaTime?) -> MediaTime {
        guard prerollState != nil else { return press }
        prerollState!.clipLength = asked.map { min($0, prerollState!.ring.length) }
        return PrerollPolicy.recordEdge(press: press, length: prerollState!.length, oldestKept: prerollState!.ring.oldestVideo)
    }

    /// `resume` with the preroll: the scene begins at `PrerollPolicy.resumeEdge`, then takes the kept samples.
    func resume(name: String?, at press: MediaTime) -> Reply {
        guard prerollState != nil, let recorder = clips.recorder, recorder.session.state == .paused,
              let pausedAt = recorder.session.pauses.last?.began else {
            return state(.resume(name: name), at: press)
        }
        let edge = PrerollPolicy.resumeEdge(press: press, length: prerollState!.length, pausedAt: pausedAt)
        let reply = state(.resume(name: name), at: edge)
        if reply.ok { handOverPreroll(to: recorder, from: edge, press: press) }
        return reply
    }

    /// A scene began at `edge` for a press at `press`: the ring's samples from `edge` go to `recorder`, at once on
    /// a clock that waits for work, else as a backlog drained at `PrerollPolicy.catchUpFramesPerTick`.
    func handOverPreroll(to recorder: Recorder, from edge: MediaTime, press: MediaTime) {
        guard prerollState != nil else { return }
        let ring = prerollState!.ring
        if ring.budgetDrops > 0 {
            let mebibytes = ring.byteBudget / (1024 * 1024)
            clips.warnClip("preroll: the kept frames reached the memory budget (\(mebibytes) MiB, preroll.memory), "
                           + "so a scene may reach back less than \(CommandParser.formatDuration(ring.length))")
        }
        if edge < press { recorder.notePress(press) }
        prerollState!.beginCatchUp(prerollState!.ring.take(from: edge))
        prerollState!.ring = PrerollRing(length: ring.length, byteBudget: ring.byteBudget)
        if serialContext.timeWaitsForWork {
            drainPrerollBacklog()
        } else {
            scheduleCatchUp(for: recorder)
        }
    }

    /// Hands `recorder` the backlog's next samples (all of them without a `limit`).
    func drainPrerollBacklog(frames limit: Int? = nil) {
        guard prerollState?.isCatchingUp == true else { return }
        let samples = prerollState!.next(frames: limit)
        // A failed sink takes nothing more (and its stop drains the rest here): the samples are let go.
        guard let recorder = clips.recorder, recorder.failure == nil else { return }
        for sample in samples {
            switch sample {
            case .video(let frame, let program, let iso):
                if let program { recorder.appendVideo(program) }
                if iso { recorder.offerIsoFrame(frame) }
            case .audio(let chunk):
                recorder.appendAudio(chunk)
            }
        }
        if let last = samples.last { stopIfFailed(recorder, at: last.pts) }
    }

    /// True while the recorder must not hold its last picture: frames older than now are still to come from the
    /// preroll (a scene catching up, or a pause whose frames the ring keeps for the next `resume`).
    var prerollDefersHold: Bool {
        guard let state = prerollState else { return false }
        return state.isCatchingUp || clips.recorder?.session.state == .paused
    }

    private func scheduleCatchUp(for recorder: Recorder) {
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        let clip = WeakSerialContextBound(recorder, serialContext: serialContext)
        let tick = recorder.description.settings.rate.frameDuration
        serialContext.schedule(at: serialContext.clock.now() + tick) {
            guard let self = controller.object, let recorder = clip.object, recorder === self.clips.recorder else {
                return
            }
            self.drainPrerollBacklog(frames: PrerollPolicy.catchUpFramesPerTick)
            if self.prerollState?.isCatchingUp == true { self.scheduleCatchUp(for: recorder) }
        }
    }
}
