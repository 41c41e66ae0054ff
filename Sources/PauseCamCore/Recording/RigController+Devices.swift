import Foundation

/// The devices of `RigController`: starting and stopping cameras and the microphone as the `LensBank` asks, plug
/// and unplug, and the one way samples come in — each device posts to its own bounded `Mailbox`, and a drain on the
/// serial context hands them to `receive`. A busy context therefore costs dropped (and counted) old samples, never
/// unbounded memory; a drain is scheduled once per batch, not once per sample.
extension RigController {
    /// Frames a camera's mailbox holds at least: a few, enough to ride out a busy moment of the context.
    public static let videoMailboxCapacity = 4
    /// The memory one camera's waiting frames may take (counted as uncompressed YUYV at the lens's size, the
    /// largest a frame gets): 1080p gets 12 frames, a small camera up to a second of its frames.
    public static let videoMailboxBytes = 48 << 20

    /// The frames `lens`'s mailbox holds: as many as fit in `videoMailboxBytes`, at least `videoMailboxCapacity`,
    /// at most one second of the lens's frames. Why a second for small cameras: the context can be busy for that
    /// long at a clip's start (x264 opening on a slow machine: 0.7 s in the TCG guest of the VM test), and the
    /// frames captured meanwhile start the movie; with only four of them the clip lost its first half second.
    static func videoMailboxCapacity(for lens: Rig.Lens?, output: Rig.OutputSettings) -> Int {
        let width = lens?.width ?? output.width, height = lens?.height ?? output.height
        let rate = lens?.rate ?? output.rate
        let oneSecond = max(videoMailboxCapacity, Int(rate.framesPerSecond.rounded(.up)))
        let fitting = videoMailboxBytes / max(1, width * height * 2)
        return min(oneSecond, max(videoMailboxCapacity, fitting))
    }
    /// Role of the microphone in the sidecar's devices and in drop counts.
    static let microphoneRole = "microphone"

    /// Starts the cameras — every one with `standby: hot`, only the active lens's with `standby: cold` — and the
    /// microphone. A camera that fails to start is reported and left out; the others go on.
    public func startDevices() {
        serialContext.assertOnSerialContext()
        perform(bank.handle(.startDevices))
        guard let microphone else { return }
        startMicrophone(microphone)
    }

    /// Starts `microphone` with a fresh mailbox. Its end is heard only while it is still the rig's microphone and
    /// only once: one that was replaced (re-plugged), or whose removal udev already reported, changes nothing.
    func startMicrophone(_ microphone: any Microphone) {
        // Three seconds of audio wait at most, counted in sample frames (about 1 MB of stereo floats). More than
        // a camera's second: a lost video frame is covered by the picture before it, lost sound is a hole, and in
        // the VM test's slow guest a hot-plug kept the context busy for over a second (45120 sample frames lost).
        let mailbox = Mailbox<AudioChunk>(capacity: 3 * Int(microphone.sampleRate), weight: { $0.frameCount })
        do {
            // `weak`: a device's thread may deliver after the controller is gone (a rig torn down mid-stream).
            try microphone.start(deliver: { [weak self, serialContext, intake] chunk in
                guard intake.isOpen, mailbox.post(chunk) else { return }
                serialContext.schedule(at: .zero) { [weak self] in self?.drainAudio(mailbox) }
            }, onEnd: { [weak self, serialContext, identity = ObjectIdentifier(microphone)] reason in
                serialContext.schedule(at: .zero) { [weak self] in
                    guard let self, self.microphone.map(ObjectIdentifier.init) == identity,
                          self.endedMicrophone != identity else { return }
                    self.endedMicrophone = identity
                    self.microphoneEnded(reason: reason)
                }
            })
        } catch {
            rigWarnings.append("microphone \(microphone.displayName) could not start: \(error)")
            notify(.microphoneFailedToStart(microphone: microphone.displayName, reason: "\(error)"))
        }
    }

    /// Starts the camera of `lens` (the bank asked for it) on the device worker: STREAMON and mapping the buffers
    /// take a while on a real camera, and the serial context does not wait for them. Starts and stops keep their
    /// order there. A failure comes back to the context, is reported, and the bank is told so it can choose again.
    private func startCamera(lens name: String) -> [String] {
        guard let camera = cameras[name] else { return perform(bank.handle(.startFailed(lens: name, at: serialContext.clock.now()))) }
        let mailbox = videoMailboxes[name] ?? Mailbox<VideoFrame>(
            capacity: Self.videoMailboxCapacity(for: rig.lens(named: name), output: rig.output))
        videoMailboxes[name] = mailbox
        let orientation = rig.lens(named: name)?.orientation ?? .upright
        let deliver: @Sendable (VideoFrame) -> Void = { [weak self, serialContext, intake, monitor] delivered in
            // The lens's orientation travels with each frame; whoever draws it (movie, thumbnail, monitor) turns it.
            var frame = delivered
            frame.orientation = orientation
            // The monitor before the gate: it shows every lens while idle too (framing before recording).
            if let monitor, monitor.isWatched { monitor.offer(frame) }
            guard intake.isOpen, mailbox.post(frame) else { return }
            serialContext.schedule(at: .zero) { [weak self] in self?.drainVideo(mailbox, lens: name) }
        }
        let onEnd: @Sendable (String) -> Void = { [weak self, serialContext] reason in
            serialContext.schedule(at: .zero) { [weak self] in self?.cameraEnded(lens: name, camera: camera, reason: reason) }
        }
        deviceWorker.submit { [weak self, serialContext] in
            do {
                try camera.start(deliver: deliver, onEnd: onEnd)
            } catch {
                let event = EngineEvent.cameraFailedToStart(lens: name, camera: camera.displayName, reason: "\(error)")
                serialContext.schedule(at: .zero) { [weak self] in self?.cameraFailedToStart(lens: name, event: event) }
            }
        }
        return []
    }

    /// A camera's start failed on the device worker: said, noted in the clip, and the bank chooses again (its
    /// rejections are told as events, since the command that led here has had its reply).
    private func cameraFailedToStart(lens name: String, event: EngineEvent) {
        notify(event)
        recorder?.warn(event.text)
        for rejection in perform(bank.handle(.startFailed(lens: name, at: serialContext.clock.now()))) {
            notify(.lensChoiceRefused(reason: rejection))
        }
    }

    /// Stops `camera` on the device worker, after any start queued before (V4L2 joins its capture thread).
    func stopCamera(_ camera: (any Camera)?) {
        guard let camera else { return }
        deviceWorker.submit { camera.stop() }
    }

    /// Everything a camera's mailbox holds, in order; its drops go to the clip recording now.
    private func drainVideo(_ mailbox: Mailbox<VideoFrame>, lens: String) {
        let drained = mailbox.drain()
        recorder?.noteMailboxDrops(device: lens, count: drained.dropped)
        for frame in drained.items { receive(frame) }
    }

    /// Everything the microphone's mailbox holds, in order; its drops go to the clip recording now.
    private func drainAudio(_ mailbox: Mailbox<AudioChunk>) {
        let drained = mailbox.drain()
        recorder?.noteMailboxDrops(device: Self.microphoneRole, count: drained.dropped)
        for chunk in drained.items { receive(chunk) }
    }

    /// Carries out the bank's actions in order; returns the rejections (why a command changed nothing).
    @discardableResult
    func perform(_ actions: [LensBank.Action]) -> [String] {
        var rejections: [String] = []
        for action in actions {
            switch action {
            case .startCamera(let lens): rejections += startCamera(lens: lens)
            case .stopCamera(let lens): stopCamera(cameras[lens])
            case .switchLens(let lens, let requested, let effective):
                switcher.switchLens(to: lens, at: effective)
                // Told once the command (if any) has also set the new lens's zoom, so the monitor never shows the
                // new lens at the old lens's crop.
                if monitor != nil { serialContext.schedule(at: .zero) { [weak self] in self?.followProgramOnMonitor() } }
                recorder?.noteSwitch(to: lens, requested: requested)
                notify(.lensLive(lens: lens, requested: requested, effective: effective))
            case .hold(let lens, let since): recorder?.noteSignalLost(lens: lens, since: since)
            case .slate(let lens, _, let time):
                recorder?.appendSlate(lens: lens, width: rig.output.width, height: rig.output.height, at: time)
            case .notify(let event): notify(event)
            case .reject(let message): rejections.append(message)
            }
        }
        return rejections
    }

    /// A camera for `lens` appeared (plugged in): it serves the lens from now on, and with `on_attach: switch`
    /// becomes the active lens, mid-clip included. Replaces any camera the lens had.
    public func attach(_ camera: any Camera, lens name: String) {
        serialContext.assertOnSerialContext()
        guard rig.lens(named: name) != nil else { return }
        if let old = cameras[name], old !== camera { stopCamera(old) }
        cameras[name] = camera
        notify(.cameraAttached(lens: name, camera: camera.displayName))
        recorder?.warn("lens \(name): \(camera.displayName) attached mid-clip")
        perform(bank.handle(.attached(lens: name, at: serialContext.clock.now())))
    }

    /// The camera of `lens` went away (unplugged, a udev remove): it is stopped and forgotten, and recording goes
    /// on with the nearest lens.
    public func detach(lens name: String, reason: String) {
        serialContext.assertOnSerialContext()
        guard let camera = cameras[name] else { return }
        stopCamera(camera)
        cameraEnded(lens: name, camera: camera, reason: reason)
    }

    /// Stops every device (the cameras on the device worker, after any start queued there); idempotent. Off the
    /// context, `waitForDevices` then waits for the stops.
    public func stopDevices() {
        serialContext.assertOnSerialContext()
        for camera in cameras.values { stopCamera(camera) }
        microphone?.stop()
    }

    /// Waits until every start and stop handed to the device worker so far has run; call it off the serial context.
    public func waitForDevices() {
        let done = DispatchSemaphore(value: 0)
        deviceWorker.submit { done.signal() }
        done.wait()
    }

    /// A frame from any lens: the switcher keeps the active lens's frames, the recorder places them.
    public func receive(_ frame: VideoFrame) {
        serialContext.assertOnSerialContext()
        guard isPlausible(frame.pts, what: "video frames from lens \(frame.lens)") else { return }
        // The bank first: a pending switch takes effect at the new lens's first frame, which must then pass.
        perform(bank.handle(.frame(lens: frame.lens, pts: frame.pts)))
        guard let routed = switcher.route(frame) else { return }
        guard let recorder else { return }
        recorder.appendVideo(routed.frame)
        stopIfFailed(recorder, at: frame.pts)
    }

    /// Audio from the microphone, raised or lowered by the rig's gain before the meter and the clip see it.
    public func receive(_ captured: AudioChunk) {
        serialContext.assertOnSerialContext()
        guard isPlausible(captured.pts, what: "audio chunks") else { return }
        let chunk = audioGain.apply(to: captured)
        if levels.add(chunk, recording: recorder?.session.state == .recording) { warnSilence() }
        if microphoneGone { microphoneCameBack() }
        guard let recorder else { return }
        recorder.appendAudio(chunk)
        stopIfFailed(recorder, at: chunk.pts)
    }

    /// How far ahead of the clock a sample's capture time may be before it is taken for a broken timestamp.
    public static let maximumFutureSkew = MediaTime.seconds(1)

    /// A sample cannot have been captured after now: one stamped more than `maximumFutureSkew` ahead of the clock
    /// is a driver's broken timestamp. It is dropped (appending it would stretch the movie by the jump, and every
    /// honest sample after it would then look late), and the clip's sidecar says so once per source.
    private func isPlausible(_ pts: MediaTime, what: String) -> Bool {
        guard let limit = try? serialContext.clock.now().adding(Self.maximumFutureSkew), pts > limit else { return true }
        recorder?.warn("\(what) with timestamps ahead of the clock were dropped (a driver's broken timestamps)")
        return false
    }

    /// A sink that failed (disk full…) cannot take more: stop now and keep what was written.
    func stopIfFailed(_ recorder: Recorder, at time: MediaTime) {
        guard let failure = recorder.failure,
              recorder.session.state == .recording || recorder.session.state == .paused else { return }
        notify(.recordingFailed(reason: "\(failure)"))
        clipInterruption = "recording failed: \(failure)"
        _ = execute(.stop, at: time)
        serialContext.interrupt()
    }

    /// A lens's camera ended by itself (unplugged): recording goes on with the nearest lens that has a camera.
    public func cameraEnded(lens: String, camera: any Camera, reason: String) {
        serialContext.assertOnSerialContext()
        // A camera that was already replaced (re-plugged) ends late: nothing to do.
        guard let current = cameras[lens], current === camera else { return }
        cameras[lens] = nil
        notify(.cameraLost(lens: lens, reason: reason))
        recorder?.warn("lens \(lens) lost its camera: \(reason)")
        perform(bank.handle(.detached(lens: lens, at: serialContext.clock.now())))
    }

    /// The input has been below `LevelMeter.silenceFloor` for 5 s while recording: said now, and in the clip's
    /// sidecar.
    private func warnSilence() {
        let warning = EngineWarning.silentMicrophone(seconds: Int(LevelMeter.silenceWarningAfter.seconds),
                                                     floorDBFS: LevelMeter.silenceFloor)
        notify(.warning(warning, noted: noteWarning(warning.text)))
    }
}
