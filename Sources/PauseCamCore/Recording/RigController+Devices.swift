import Foundation

/// What `RigController` does with its `DeviceHub`: starts and stops cameras as the `LensBank` asks, turns the hub's
/// reports (samples, plugs and unplugs, failed starts) into the lens policy's events and the clip's warnings, and
/// passes samples on — the switcher keeps the active lens's frames, the recorder places them.
extension RigController {
    /// Frames a camera's mailbox holds at least (the hub's).
    public static var videoMailboxCapacity: Int { DeviceHub.videoMailboxCapacity }
    /// The memory one camera's waiting frames may take (the hub's).
    public static var videoMailboxBytes: Int { DeviceHub.videoMailboxBytes }
    /// The frames `lens`'s mailbox holds (the hub's rule).
    static func videoMailboxCapacity(for lens: Rig.Lens?, output: Rig.OutputSettings) -> Int {
        DeviceHub.videoMailboxCapacity(for: lens, output: output)
    }
    /// Role of the microphone in the sidecar's devices and in drop counts.
    static var microphoneRole: String { DeviceHub.microphoneRole }

    /// Starts the cameras — every one with `standby: hot`, only the active lens's with `standby: cold` — and the
    /// microphone. A camera that fails to start is reported and left out; the others go on.
    public func startDevices() {
        serialContext.assertOnSerialContext()
        startLive()
        startPreroll()
        perform(bank.handle(.startDevices))
        devices.startMicrophone()
    }

    /// Stops every device (the cameras on the device worker, after any start queued there); idempotent. Off the
    /// context, `waitForDevices` then waits for the stops.
    public func stopDevices() {
        serialContext.assertOnSerialContext()
        devices.stopDevices()
    }

    /// Waits until every start and stop handed to the device worker so far has run; call it off the serial context.
    public func waitForDevices() {
        devices.waitForDevices()
    }

    /// A camera for `lens` appeared (plugged in): it serves the lens from now on, and with `on_attach: switch`
    /// becomes the active lens, mid-clip included. Replaces any camera the lens had.
    public func attach(_ camera: any Camera, lens name: String) {
        devices.attach(camera, lens: name)
    }

    /// The camera of `lens` went away (unplugged, a udev remove): it is stopped and forgotten, and recording goes
    /// on with the nearest lens.
    public func detach(lens name: String, reason: String) {
        devices.detach(lens: name, reason: reason)
    }

    /// A lens's camera ended by itself (unplugged): recording goes on with the nearest lens that has a camera.
    public func cameraEnded(lens: String, camera: any Camera, reason: String) {
        devices.cameraEnded(lens: lens, camera: camera, reason: reason)
    }

    /// One report of the hub, on the serial context.
    func handle(_ report: DeviceHub.Report) {
        switch report {
        case .frame(let frame): receive(frame)
        case .chunk(let chunk): receive(chunk)
        case .mailboxDrops(let device, let count): clips.recorder?.noteMailboxDrops(device: device, count: count)
        case .cameraAttached(let lens, let camera):
            notify(.cameraAttached(lens: lens, camera: camera))
            clips.warnClip("lens \(lens): \(camera) attached mid-clip")
            perform(bank.handle(.attached(lens: lens, at: serialContext.clock.now())))
        case .cameraLost(let lens, let reason):
            notify(.cameraLost(lens: lens, reason: reason))
            clips.warnClip("lens \(lens) lost its camera: \(reason)")
            perform(bank.handle(.detached(lens: lens, at: serialContext.clock.now())))
        case .cameraFailedToStart(let lens, let camera, let reason, let outOfBandwidth):
            if outOfBandwidth, let bus = devices.lensBuses[lens],
               let stopped = bank.bandwidthVictim(for: lens, sharingBus: devices.lenses(sharingBusWith: lens)) {
                // The old lens keeps filling the movie meanwhile: the bank's pending switch still waits for `lens`.
                let event = EngineEvent.lensStoppedForBandwidth(stopped: stopped, lens: lens, bus: bus)
                notify(event)
                clips.warnClip(event.text)
                perform(bank.handle(.stoppedForBandwidth(lens: lens, stopped: stopped)))
                return
            }
            // The bank's rejections are told as events, since the command that led here has had its reply.
            let event = EngineEvent.cameraFailedToStart(lens: lens, camera: camera, reason: reason)
            notify(event)
            clips.warnClip(event.text)
            for rejection in perform(bank.handle(.startFailed(lens: lens, at: serialContext.clock.now()))) {
                notify(.lensChoiceRefused(reason: rejection))
            }
        case .microphoneFailedToStart(let microphone, let reason):
            clips.warnEveryClip("microphone \(microphone) could not start: \(reason)")
            notify(.microphoneFailedToStart(microphone: microphone, reason: reason))
        case .microphoneEnded(let reason): microphoneEnded(reason: reason)
        case .voiceChunk(let card, let chunk): receiveVoice(chunk, card: card)
        case .voiceCardEnded(let card, let reason): voiceCardEnded(card, reason: reason)
        case .voiceCardFailedToStart(let card, let microphone, let reason):
            let voices = desk.map { desk in desk.plan.cards[card].voices.map { desk.voices[$0].name } } ?? []
            clips.warnEveryClip("voice \(voices.joined(separator: ", ")): microphone \(microphone) could not start: \(reason)")
            notify(.microphoneFailedToStart(microphone: microphone, reason: reason))
        case .clipWarning(let warning): clips.warnClip(warning)
        case .settingNotHeld(let lens, let camera, let mismatch):
            let warning = EngineWarning.settingNotHeld(lens: lens, camera: camera, mismatch: mismatch)
            notify(.warning(warning, noted: clips.note(warning.text)))
        }
    }

    /// Carries out the bank's actions in order; returns the rejections (why a command changed nothing).
    @discardableResult
    func perform(_ actions: [LensBank.Action]) -> [String] {
        var rejections: [String] = []
        for action in actions {
            switch action {
            case .startCamera(let lens):
                if !devices.startCamera(lens: lens) {
                    rejections += perform(bank.handle(.startFailed(lens: lens, at: serialContext.clock.now())))
                }
            case .stopCamera(let lens): devices.stopCamera(lens: lens)
            case .switchLens(let lens, let requested, let effective):
                switcher.switchLens(to: lens, at: effective)
                // Told once the command (if any) has also set the new lens's zoom, so the monitor never shows the
                // new lens at the old lens's crop.
                if monitor != nil {
                    let controller = WeakSerialContextBound(self, serialContext: serialContext)
                    serialContext.schedule(at: .zero) { controller.object?.followProgramOnMonitor() }
                }
                clips.recorder?.noteSwitch(to: lens, requested: requested)
                notify(.lensLive(lens: lens, requested: requested, effective: effective))
            case .hold(let lens, let since): clips.recorder?.noteSignalLost(lens: lens, since: since)
            case .slate(let lens, _, let time):
                clips.recorder?.appendSlate(lens: lens, width: rig.output.width, height: rig.output.height, at: time)
            case .notify(let event): notify(event)
            case .reject(let message): rejections.append(message)
            }
        }
        return rejections
    }

    /// A frame from any lens: the switcher keeps the active lens's frames, the recorder places them; the ISO of
    /// its lens (`output.iso`), if any, gets every frame.
    public func receive(_ frame: VideoFrame) {
        serialContext.assertOnSerialContext()
        guard isPlausible(frame.pts, what: "video frames from lens \(frame.lens)") else { return }
        // The bank first: a pending switch takes effect at the new lens's first frame, which must then pass.
        perform(bank.handle(.frame(lens: frame.lens, pts: frame.pts)))
        let routed = switcher.route(frame)
        if let routed { feedLive(routed.frame) }
        if prerollTakes(frame: frame, routed: routed?.frame) { return }
        guard let recorder = clips.recorder else { return }
        // The program first: the ISOs place their frames on what it has decided.
        if let routed { recorder.appendVideo(routed.frame) }
        recorder.offerIsoFrame(frame)
        stopIfFailed(recorder, at: frame.pts)
    }

    /// Audio from the microphone, raised or lowered by the rig's gain before the meter and the clip see it.
    public func receive(_ captured: AudioChunk) {
        serialContext.assertOnSerialContext()
        guard isPlausible(captured.pts, what: "audio chunks") else { return }
        let chunk = audioGain.apply(to: captured)
        if levels.add(chunk, recording: clips.recorder?.session.state == .recording) { warnSilence() }
        if devices.microphoneReturned() { microphoneCameBack() }
        feedLive(chunk)
        if prerollTakes(sound: chunk) { return }
        guard let recorder = clips.recorder else { return }
        recorder.appendAudio(chunk)
        stopIfFailed(recorder, at: chunk.pts)
    }

    /// How far ahead of the clock a sample's capture time may be before it is taken for a broken timestamp.
    public static let maximumFutureSkew = MediaTime.seconds(1)

    /// A sample cannot have been captured after now: one stamped more than `maximumFutureSkew` ahead of the clock
    /// is a driver's broken timestamp. It is dropped (appending it would stretch the movie by the jump, and every
    /// honest sample after it would then look late), and the clip's sidecar says so once per source.
    func isPlausible(_ pts: MediaTime, what: String) -> Bool {
        guard let limit = try? serialContext.clock.now().adding(Self.maximumFutureSkew), pts > limit else { return true }
        clips.warnClip("\(what) with timestamps ahead of the clock were dropped (a driver's broken timestamps)")
        return false
    }

    /// A sink that failed (disk full…) cannot take more: stop now and keep what was written.
    func stopIfFailed(_ recorder: Recorder, at time: MediaTime) {
        guard let failure = recorder.failure,
              recorder.session.state == .recording || recorder.session.state == .paused else { return }
        notify(.recordingFailed(reason: "\(failure)"))
        clips.interrupt(reason: "recording failed: \(failure)")
        _ = execute(.stop, at: time)
        serialContext.interrupt()
    }

    /// The input has been below `LevelMeter.silenceFloor` for 5 s while recording: said now, and in the clip's
    /// sidecar.
    private func warnSilence() {
        let warning = EngineWarning.silentMicrophone(seconds: Int(LevelMeter.silenceWarningAfter.seconds),
                                                     floorDBFS: LevelMeter.silenceFloor)
        notify(.warning(warning, noted: clips.note(warning.text)))
    }
}
