import Foundation

/// Runs a rig: its lenses and microphone, the active-lens `Switcher`, and the clip being recorded. Every `Command`
/// from the shell, a scene script or a remote control arrives here as the same value and gets the same reply.
///
/// Used only on the scheduler's serial context (devices' callbacks are hopped onto it), so it has no locks.
public final class RigController: @unchecked Sendable {
    /// The answer to a command: a line for the user, and whether it was accepted.
    public struct Reply: Sendable, Equatable {
        public var ok: Bool
        public var message: String
        public static func ok(_ message: String) -> Reply { Reply(ok: true, message: message) }
        public static func failed(_ message: String) -> Reply { Reply(ok: false, message: message) }
    }

    /// What the prompt and `status` show.
    public struct Status: Sendable, Equatable {
        public var state: Session.State
        public var scene: Int
        public var timer: MediaTime
        public var lens: String
        public var digitalZoom: Double
        public var droppedFrames: Int
        public var moviePath: String?
        /// The microphone's peak over the last 100 ms in dBFS (`LevelMeter`); `nil` without a microphone.
        public var audioPeak: Double? = nil
    }

    /// How long after `stop` the clip is finished: samples captured before the stop may still be in flight.
    public static let stopGrace = MediaTime.milliseconds(200)
    /// How late the active lens's next frame may be before the movie holds its last picture: a slot of the output
    /// clock older than this is decided with the picture before it, so a stalled or unplugged camera never leaves a
    /// hole in the movie (and the audio, the timer and the chapters go on with it). Far above a camera's delivery
    /// latency and a slow lens's frame interval (5 fps is 200 ms).
    public static let holdAfter = MediaTime.milliseconds(500)
    /// How often the held picture is extended while no frame comes.
    static let holdInterval = MediaTime.milliseconds(100)

    public let rig: Rig
    /// The camera serving each lens role now; a role without one has no camera (unplugged, or never found).
    public private(set) var cameras: [String: any Camera]
    private let microphone: (any Microphone)?
    /// The microphone's live level and silence watch.
    private var levels = LevelMeter()
    /// The microphone ended by itself (unplugged); its next chunk means it is back.
    private var microphoneGone = false
    private let sinkFactory: any MovieSinkFactory
    private let store: any SidecarStore
    private let scheduler: any Scheduler
    private let wallClock: @Sendable () -> Date
    private let outputDirectory: String
    /// Called with every event the user should see (scene changes, unplugged cameras, saved clips).
    private let notify: (String) -> Void
    /// Whether devices' samples are hopped onto the serial context at all. Closed while no clip needs them (idle,
    /// and while a finished clip is remuxed, which blocks the context for a while): otherwise a minute of 1080p
    /// frames from every lens would pile up in the queue in front of the remux.
    private let intake = Gate()
    /// Warnings known before any clip (microphone missing…): copied into every clip's sidecar.
    private var rigWarnings: [String] = []

    /// Routes the active lens's frames (a switch takes effect at its time) and crops them for digital zoom.
    public private(set) var switcher: Switcher
    /// The lens policy: which cameras run, pending switches, fallback, hold and slate. This class performs its
    /// actions.
    public private(set) var bank: LensBank
    public private(set) var recorder: Recorder?
    /// The last finished clip.
    public private(set) var lastClip: Recorder.Clip?
    /// Lenses whose camera is running (streaming). With `standby: cold` only the active one (two while a switch
    /// waits for the new lens's first frame).
    public var availableLenses: Set<String> { bank.running }
    /// Watches free space while recording; `nil` leaves the disk unwatched.
    private let storage: (any StorageProbe)?
    private let storagePolicy: StoragePolicy
    /// Why the current or last clip was stopped by PauseCam rather than by a command (a full disk, a failed
    /// write); scripts end when they see it. Cleared by `record`.
    public private(set) var clipInterruption: String?
    /// Why the last clip could not be finished, if it could not (the `.partial` then holds the recording).
    public private(set) var lastFailure: String?
    /// Set when the last clip got no video frame at all (a `stop` right after `record`, or no lens delivering):
    /// such a clip is not kept — no movie, no `.partial`, no sidecar — and this says so for the user. Callers that
    /// end on a clip (`pausecam run`, the shell) treat it as a failure. Cleared by `record`.
    public private(set) var nothingRecorded: String?
    /// Sidecar warnings that arose while no clip was recording (a control the lens lacks, set before `record`):
    /// the next clip starts with them, since it is recorded without what was asked for.
    private var pendingClipWarnings: [String] = []
    /// The script name for `{script}` in file names, while a script runs.
    public var scriptName: String?

    /// A controller for `rig` whose lens roles are served by `cameras` (a missing role has no camera yet).
    public init(rig: Rig, cameras: [String: any Camera], microphone: (any Microphone)?, sinkFactory: any MovieSinkFactory,
                store: any SidecarStore, scheduler: any Scheduler, wallClock: @escaping @Sendable () -> Date,
                outputDirectory: String, warnings: [String] = [], storage: (any StorageProbe)? = nil,
                storagePolicy: StoragePolicy = StoragePolicy(), notify: @escaping (String) -> Void) {
        self.storage = storage
        self.storagePolicy = storagePolicy
        self.rig = rig
        self.cameras = cameras
        self.microphone = microphone
        self.sinkFactory = sinkFactory
        self.store = store
        self.scheduler = scheduler
        self.wallClock = wallClock
        self.outputDirectory = outputDirectory
        self.rigWarnings = warnings
        self.notify = notify
        switcher = Switcher(lens: rig.defaultLens)
        bank = LensBank(rig: rig, withCamera: Set(cameras.keys))
    }

    // MARK: Devices

    /// Starts the cameras — every one with `standby: hot`, only the active lens's with `standby: cold` — and the
    /// microphone; their samples are hopped onto the serial context. A camera that fails to start is reported and
    /// left out; the others go on.
    public func startDevices() {
        scheduler.assertOnSerialContext()
        perform(bank.handle(.startDevices))
        if let microphone {
            do {
                // `weak`: a device's thread may deliver after the controller is gone (a rig torn down mid-stream).
                try microphone.start(deliver: { [weak self, scheduler] chunk in
                    guard let self, self.intake.isOpen else { return }
                    scheduler.schedule(at: .zero) { [weak self] in self?.receive(chunk) }
                }, onEnd: { [weak self, scheduler] reason in
                    scheduler.schedule(at: .zero) { [weak self] in self?.microphoneEnded(reason: reason) }
                })
            } catch {
                rigWarnings.append("microphone \(microphone.displayName) could not start: \(error)")
                notify("microphone \(microphone.displayName) could not start: \(error)")
            }
        }
    }

    /// Starts the camera of `lens` (the bank asked for it); a failure is reported, and the bank told so it can
    /// choose again.
    private func startCamera(lens name: String) -> [String] {
        guard let camera = cameras[name] else { return perform(bank.handle(.startFailed(lens: name, at: scheduler.clock.now()))) }
        do {
            try camera.start(deliver: { [weak self, scheduler] frame in
                guard let self, self.intake.isOpen else { return }
                scheduler.schedule(at: .zero) { [weak self] in self?.receive(frame) }
            }, onEnd: { [weak self, scheduler] reason in
                scheduler.schedule(at: .zero) { [weak self] in
                    self?.cameraEnded(lens: name, camera: camera, reason: reason)
                }
            })
            return []
        } catch {
            notify("lens \(name): \(camera.displayName) could not start: \(error)")
            recorder?.warn("lens \(name): \(camera.displayName) could not start: \(error)")
            return perform(bank.handle(.startFailed(lens: name, at: scheduler.clock.now())))
        }
    }

    /// Carries out the bank's actions in order; returns the rejections (why a command changed nothing).
    @discardableResult
    private func perform(_ actions: [LensBank.Action]) -> [String] {
        var rejections: [String] = []
        for action in actions {
            switch action {
            case .startCamera(let lens): rejections += startCamera(lens: lens)
            case .stopCamera(let lens): cameras[lens]?.stop()
            case .switchLens(let lens, let requested, let effective):
                switcher.switchLens(to: lens, at: effective)
                recorder?.noteSwitch(to: lens, requested: requested)
            case .hold(let lens, let since): recorder?.noteSignalLost(lens: lens, since: since)
            case .slate(let lens, _, let time):
                recorder?.appendSlate(lens: lens, width: rig.output.width, height: rig.output.height, at: time)
            case .notify(let message): notify(message)
            case .reject(let message): rejections.append(message)
            }
        }
        return rejections
    }

    /// A camera for `lens` appeared (plugged in): it serves the lens from now on, and with `on_attach: switch`
    /// becomes the active lens, mid-clip included. Replaces any camera the lens had.
    public func attach(_ camera: any Camera, lens name: String) {
        scheduler.assertOnSerialContext()
        guard rig.lens(named: name) != nil else { return }
        if let old = cameras[name], old !== camera { old.stop() }
        cameras[name] = camera
        notify("lens \(name): \(camera.displayName) attached")
        recorder?.warn("lens \(name): \(camera.displayName) attached mid-clip")
        perform(bank.handle(.attached(lens: name, at: scheduler.clock.now())))
    }

    /// The camera of `lens` went away (unplugged, a udev remove): it is stopped and forgotten, and recording goes
    /// on with the nearest lens.
    public func detach(lens name: String, reason: String) {
        scheduler.assertOnSerialContext()
        guard let camera = cameras[name] else { return }
        camera.stop()
        cameraEnded(lens: name, camera: camera, reason: reason)
    }

    /// Stops every device; idempotent.
    public func stopDevices() {
        scheduler.assertOnSerialContext()
        for camera in cameras.values { camera.stop() }
        microphone?.stop()
    }

    /// A frame from any lens: the switcher keeps the active lens's frames, the recorder places them.
    public func receive(_ frame: VideoFrame) {
        scheduler.assertOnSerialContext()
        guard isPlausible(frame.pts, what: "video frames from lens \(frame.lens)") else { return }
        // The bank first: a pending switch takes effect at the new lens's first frame, which must then pass.
        perform(bank.handle(.frame(lens: frame.lens, pts: frame.pts)))
        guard let routed = switcher.route(frame) else { return }
        guard let recorder else { return }
        recorder.appendVideo(routed.frame)
        stopIfFailed(recorder, at: frame.pts)
    }

    /// Audio from the microphone.
    public func receive(_ chunk: AudioChunk) {
        scheduler.assertOnSerialContext()
        guard isPlausible(chunk.pts, what: "audio chunks") else { return }
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
        guard let limit = try? scheduler.clock.now().adding(Self.maximumFutureSkew), pts > limit else { return true }
        recorder?.warn("\(what) with timestamps ahead of the clock were dropped (a driver's broken timestamps)")
        return false
    }

    /// A sink that failed (disk full…) cannot take more: stop now and keep what was written.
    private func stopIfFailed(_ recorder: Recorder, at time: MediaTime) {
        guard let failure = recorder.failure,
              recorder.session.state == .recording || recorder.session.state == .paused else { return }
        notify("recording failed: \(failure); stopping and keeping what was written")
        clipInterruption = "recording failed: \(failure)"
        _ = execute(.stop, at: time)
        scheduler.interrupt()
    }

    /// A lens's camera ended by itself (unplugged): recording goes on with the nearest lens that has a camera.
    public func cameraEnded(lens: String, camera: any Camera, reason: String) {
        scheduler.assertOnSerialContext()
        // A camera that was already replaced (re-plugged) ends late: nothing to do.
        guard let current = cameras[lens], current === camera else { return }
        cameras[lens] = nil
        notify("lens \(lens) lost its camera: \(reason)")
        recorder?.warn("lens \(lens) lost its camera: \(reason)")
        perform(bank.handle(.detached(lens: lens, at: scheduler.clock.now())))
    }

    /// The input has been below −60 dBFS for 5 s while recording: said now, and in the clip's sidecar.
    private func warnSilence() {
        let warning = "the microphone has been silent (below −60 dBFS) for 5 s: is it muted or turned down?"
        notify("warning: " + warning + clipWarning(warning))
    }

    private func microphoneEnded(reason: String) {
        microphoneGone = true
        notify("microphone stopped: \(reason); the clip goes on with silence")
        recorder?.warn("microphone stopped: \(reason); the clip goes on with silence")
    }

    /// Sound again after the microphone ended (plugged back): said, and noted in the clip's sidecar.
    private func microphoneCameBack() {
        microphoneGone = false
        let event = "microphone back: sound resumes at \(DurationParser.clockString(recorder?.session.timer ?? .zero))"
        notify(event)
        recorder?.warn(event)
    }

    // MARK: Commands

    /// Carries out `command`, given at session-clock `time`.
    public func execute(_ command: Command, at time: MediaTime) -> Reply {
        scheduler.assertOnSerialContext()
        switch command {
        case .record(let name): return record(name: name, at: time)
        case .pause: return state(.pause, at: time)
        case .resume(let name): return state(.resume(name: name), at: time)
        case .stop: return state(.stop, at: time)
        case .lens(let choice): return lens(choice, at: time)
        case .zoom(let choice): return zoom(choice, at: time)
        case .exposure(let choice): return exposure(choice)
        case .focus(let choice): return focus(choice)
        case .mark(let text):
            guard let recorder else { return .failed("not recording; markers belong to a clip (`record` first)") }
            switch recorder.mark(text) {
            case .success(let t): return .ok("marked \"\(text)\" at \(DurationParser.clockString(t))")
            case .failure(let rejection): return .failed(rejection.message)
            }
        case .status: return .ok(statusLine())
        case .wait: return .failed("`wait` is carried out by the script runner or the shell")
        case .devices, .run, .last, .help, .quit:
            return .failed("`\(command.word)` is a shell command")
        }
    }

    private func record(name: String?, at time: MediaTime) -> Reply {
        if let recorder, recorder.session.state != .finished {
            if recorder.session.state == .stopping { finalizeIfStopping() } else {
                return .failed("already recording (scene \(recorder.session.scenes.count)); use `stop` first")
            }
        }
        guard availableLenses.contains(bank.activeLens) else {
            return .failed("lens \(bank.activeLens) has no camera; choose another with `lens NAME`")
        }
        let settings = movieSettings()
        let baseName = FileNamePattern.expand(rig.output.namePattern, rig: rig.name, date: wallClock(),
                                              script: scriptName)
        // Samples are let in before the sink opens: opening x264 and the file takes a while (half a second on a
        // slow machine), and the frames captured meanwhile belong to the clip — they wait on the serial context and
        // reach the recorder right after this command. Closed again if the sink cannot open.
        intake.isOpen = true
        let sink: any MovieSink
        do {
            sink = try sinkFactory.makeSink(directory: outputDirectory, baseName: baseName, settings: settings)
        } catch {
            intake.isOpen = false
            return .failed("cannot start recording: \(error)")
        }
        let sidecarPath = String(sink.moviePath.dropLast(settings.container.rawValue.count)) + "json"
        var devices = rig.lenses.compactMap { lens in
            cameras[lens.name].map {
                Sidecar.Device(role: lens.name, name: $0.displayName,
                               latency: lens.latency == .zero ? nil : lens.latency.seconds)
            }
        }
        if let microphone, settings.audio != nil {
            devices.append(Sidecar.Device(role: "microphone", name: microphone.displayName))
        }
        let description = Recorder.Description(rigName: rig.name, settings: settings, devices: devices,
                                               sidecarPath: sidecarPath, started: Self.iso8601(wallClock()))
        let recorder = Recorder(description: description, sink: sink, store: store)
        recorder.serialContext = scheduler
        lastClip = nil
        lastFailure = nil
        nothingRecorded = nil
        clipInterruption = nil
        scheduleHealthCheck(for: recorder)
        scheduleVideoHold(for: recorder)
        for warning in rigWarnings + pendingClipWarnings { recorder.warn(warning) }
        pendingClipWarnings = []
        self.recorder = recorder
        return state(.record(name: name), at: time)
    }

    private func movieSettings() -> MovieSettings {
        let output = rig.output
        let audio = microphone.map {
            MovieSettings.AudioSettings(sampleRate: $0.sampleRate, channels: $0.channels, bitrate: output.audioBitrate,
                                        declick: rig.audio.options.declick)
        }
        return MovieSettings(width: output.width, height: output.height, rate: output.rate,
                             container: output.container, preset: output.preset, crf: output.crf,
                             keyframeInterval: output.keyframeInterval, audio: audio,
                             blockWhenBehind: scheduler is SimulatedScheduler)
    }

    private func state(_ command: Session.Command, at time: MediaTime) -> Reply {
        guard let recorder else {
            switch command {
            case .record: return .failed("cannot start recording")
            default: return .failed("not recording; `record` first")
            }
        }
        switch recorder.handle(command, at: time) {
        case .failure(let rejection):
            return .failed(rejection.message)
        case .success(let actions):
            for case .startRetimer(let start) in actions {
                perform(bank.handle(.recordingStarted(at: start)))
            }
            for case .finalize(let stopTime) in actions {
                // Only this clip's timer may finish it: a new clip started meanwhile has its own.
                scheduler.schedule(at: stopTime + Self.stopGrace) { [weak self, weak recorder] in
                    guard let self, let recorder, recorder === self.recorder else { return }
                    self.finalizeIfStopping()
                }
            }
            let scene = recorder.session.scenes.last
            switch command {
            case .record: return .ok("recording scene 1\(scene?.name.map { " \"\($0)\"" } ?? "") to \(recorder.moviePath)")
            case .pause: return .ok("paused at \(DurationParser.clockString(recorder.session.timer)) (scene \(scene?.index ?? 0))")
            case .resume: return .ok("recording scene \(scene?.index ?? 0)\(scene?.name.map { " \"\($0)\"" } ?? "")")
            case .stop: return .ok("stopping…")
            }
        }
    }

    /// Finishes a clip whose `stop` grace time has passed; does nothing otherwise. Idempotent.
    @discardableResult
    public func finalizeIfStopping() -> Recorder.Clip? {
        scheduler.assertOnSerialContext()
        guard let recorder, recorder.session.state == .stopping else { return nil }
        if !recorder.hasVideo && recorder.failure == nil {
            discardEmptyClip(recorder)
            return nil
        }
        // A slate due before the stop belongs in the clip (the last tick may have come before it was due).
        perform(bank.handle(.tick(now: scheduler.clock.now())))
        do {
            intake.isOpen = false
            let clip = try recorder.finish(stoppedAt: Self.iso8601(wallClock()))
            lastClip = clip
            let dropped = clip.sidecar.video.framesDropped
            notify("saved \(clip.moviePath) — \(clip.sidecar.scenes.count) scene(s), "
                   + "\(DurationParser.clockString(recorder.session.timer)), \(dropped) dropped frame(s)")
            self.recorder = nil
            return clip
        } catch {
            let partial = recorder.moviePath + ".partial"
            lastFailure = "\(error)"
            notify("the clip could not be finished: \(error)\n"
                   + "  Everything recorded up to then is in \(partial) (it plays as it is).\n"
                   + "  To make a normal movie of it once there is room: "
                   + "ffmpeg -i \(ShellWord.path(partial)) -map 0:v -map '0:a?' -c copy \(ShellWord.path(recorder.moviePath))")
            self.recorder = nil
            return nil
        }
    }

    /// A clip without a single video frame is no movie (an empty `.mov` with no streams and no thumbnail would
    /// only look like one): its files are removed and the user is told why.
    private func discardEmptyClip(_ recorder: Recorder) {
        intake.isOpen = false
        recorder.discard()
        let reason = "nothing was recorded: no video frame arrived between record and stop, so no movie was kept"
        nothingRecorded = reason
        notify(reason)
        self.recorder = nil
    }

    // MARK: Health while recording

    /// What the periodic check remembers between rounds.
    private struct HealthState {
        var warnedDisk = false
        var droppedFramesSeen = 0
    }

    /// Every `storagePolicy.interval` while `recorder` records: reports frames the encoder had to drop since the
    /// last round, warns once when the disk runs low, and stops and saves the clip while there is still room to
    /// finish it (the final movie needs about the `.partial`'s size again).
    private func scheduleHealthCheck(for recorder: Recorder, _ state: HealthState = HealthState()) {
        let next = scheduler.clock.now() + storagePolicy.interval
        scheduler.schedule(at: next) { [weak self, weak recorder] in
            guard let self, let recorder, recorder === self.recorder,
                  recorder.session.state == .recording || recorder.session.state == .paused else { return }
            var state = state
            let dropped = recorder.droppedVideoFrames
            if dropped > state.droppedFramesSeen {
                self.notify("\(dropped - state.droppedFramesSeen) frames dropped in the last "
                            + "\(DurationParser.clockString(self.storagePolicy.interval)): the encoder cannot keep up "
                            + "(a faster preset or a smaller size helps)")
                state.droppedFramesSeen = dropped
            }
            if let storage = self.storage, let free = storage.availableBytes(at: self.outputDirectory) {
                let needed = storage.fileSize(at: recorder.moviePath + ".partial") ?? 0
                let spare = free - needed
                if spare < self.storagePolicy.stopBelow {
                    let message = "the disk is nearly full (\(Self.megabytes(free)) left): stopping and saving the "
                        + "clip while there is room to finish it"
                    self.notify(message)
                    recorder.warn(message)
                    self.clipInterruption = "the disk is nearly full"
                    _ = self.execute(.stop, at: self.scheduler.clock.now())
                    self.scheduler.interrupt()
                    return
                }
                if !state.warnedDisk && spare < self.storagePolicy.warnBelow {
                    let message = "the disk is almost full: \(Self.megabytes(free)) left where the clip is written"
                    self.notify(message)
                    recorder.warn(message)
                    state.warnedDisk = true
                }
            }
            self.scheduleHealthCheck(for: recorder, state)
        }
    }

    /// Every `holdInterval` while `recorder` records: the output clock's slots older than `holdAfter` are decided
    /// with the last picture. While the active camera delivers, they are decided already and this does nothing.
    private func scheduleVideoHold(for recorder: Recorder) {
        scheduler.schedule(at: scheduler.clock.now() + Self.holdInterval) { [weak self, weak recorder] in
            guard let self, let recorder, recorder === self.recorder,
                  recorder.session.state == .recording || recorder.session.state == .paused else { return }
            let now = self.scheduler.clock.now()
            self.perform(self.bank.handle(.tick(now: now)))
            if let before = try? now.subtracting(Self.holdAfter) {
                recorder.holdVideo(before: before)
                self.stopIfFailed(recorder, at: now)
            }
            self.scheduleVideoHold(for: recorder)
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        bytes >= 10 << 20 ? "\(bytes >> 20) MB" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    private func lens(_ choice: Command.LensChoice, at time: MediaTime) -> Reply {
        let target: String
        switch choice {
        case .named(let name):
            guard rig.lens(named: name) != nil else {
                return .failed("no lens \"\(name)\"\(SpellingSuggestion.clause(for: name, in: rig.lenses.map(\.name))); "
                               + "lenses: \(rig.lenses.map(\.name).joined(separator: ", "))")
            }
            target = name
        case .next:
            let order = rig.lenses.map(\.name).filter { cameras[$0] != nil }
            guard let index = order.firstIndex(of: bank.activeLens), order.count > 1 else {
                guard let first = order.first else { return .failed("no lens has a camera") }
                target = first
                break
            }
            target = order[(index + 1) % order.count]
        }
        if let rejection = select(target, at: time) { return .failed(rejection) }
        if switcher.targetZoom > 1 { switcher.zoom(to: 1, ramp: .zero, at: time) }
        return .ok("lens \(target)")
    }

    private func zoom(_ choice: Command.ZoomChoice, at time: MediaTime) -> Reply {
        let lensName: String
        let digital: Double
        let ramp: MediaTime
        var note: String?
        switch choice {
        case .preset(let name):
            guard let preset = rig.zoomPreset(named: name) else {
                if let factor = ZoomFactor.parse(name) { return zoom(.factor(factor), at: time) }
                let names = rig.zoomPresets.map(\.name)
                return .failed("no zoom preset \"\(name)\"\(SpellingSuggestion.clause(for: name, in: names)); "
                               + "presets: \(names.joined(separator: ", "))")
            }
            guard preset.digital <= rig.maxDigitalZoom + 1e-9 else {
                return .failed("zoom preset \"\(name)\" asks for \(ZoomFactor.text(preset.digital)) digital zoom, beyond "
                               + "this rig's limit of \(ZoomFactor.text(rig.maxDigitalZoom)) (max_digital_zoom)")
            }
            (lensName, digital, ramp) = (preset.lens, preset.digital, preset.ramp)
        case .factor(let factor):
            guard factor > 0, factor.isFinite else { return .failed("a zoom factor is a positive number, like 1.5") }
            switch LensForZoom.choose(factor: factor, lenses: rig.lenses.filter { cameras[$0.name] != nil },
                                      maxDigitalZoom: rig.maxDigitalZoom) {
            case .failure(let refusal):
                return .failed(refusal.message)
            case .success(let choice):
                (lensName, digital, ramp, note) = (choice.lens, choice.digital, .zero, choice.note)
            }
        }
        let changesLens = lensName != bank.activeLens
        if let rejection = select(lensName, at: time) { return .failed(rejection) }
        if changesLens { switcher.zoom(to: 1, ramp: .zero, at: time) }
        switcher.zoom(to: digital, ramp: ramp, at: time)
        if let note { return .ok(note) }
        return .ok("zoom \(lensName)" + (digital > 1.0001 ? " \(ZoomFactor.text(digital)) digital" : ""))
    }

    /// Makes `lens` the active lens through the bank: at once when it delivers frames (or no clip waits for
    /// them), else when its first frame comes; returns why not, if it cannot be.
    private func select(_ lens: String, at time: MediaTime) -> String? {
        perform(bank.handle(.select(lens: lens, at: time, recording: recorder != nil))).first
    }

    private func exposure(_ choice: Command.ExposureChoice) -> Reply {
        let setting: Rig.ExposurePreset.Setting
        switch choice {
        case .auto: setting = .auto
        case .bias(let ev): setting = .bias(ev)
        case .preset(let name):
            guard let preset = rig.exposurePreset(named: name) else {
                let names = rig.exposurePresets.map(\.name)
                return .failed("no exposure preset \"\(name)\"\(SpellingSuggestion.clause(for: name, in: names)); "
                               + "presets: \(names.joined(separator: ", "))")
            }
            setting = preset.setting
        }
        return control("exposure", asked: .exposure(choice)) { try $0.setExposure(setting) }
    }

    private func focus(_ choice: Command.FocusChoice) -> Reply {
        control("focus", asked: .focus(choice)) { try $0.setFocus(choice) }
    }

    /// Applies a camera control on the active lens; a camera without controls (a virtual lens) is told so, and
    /// nothing else changes. Either way, what could not be done goes into the clip's sidecar as a warning (the
    /// next clip's, when none is recording), so the sidecar never implies a setting the picture does not have.
    private func control(_ what: String, asked command: Command,
                         _ apply: (any CameraControlling) throws -> [String]) -> Reply {
        let lens = bank.activeLens
        let asked = CommandParser.line(for: command)
        guard let camera = cameras[lens] as? any CameraControlling else {
            let message = "lens \(lens) (\(cameras[lens]?.displayName ?? "no camera")) has no \(what) control; nothing changed"
            return .ok(message + clipWarning("\(asked): \(message)"))
        }
        do {
            let warnings = try apply(camera)
            let noted = warnings.map { clipWarning("\(asked): \($0)") }.last ?? ""
            return .ok((["\(what) set on lens \(lens)"] + warnings).joined(separator: "\n") + noted)
        } catch {
            let message = "\(what) on lens \(lens): \(error)"
            return .failed(message + clipWarning("\(asked): \(message)"))
        }
    }

    /// Puts `warning` into the sidecar of the clip recording now, or of the next clip when none is; returns the
    /// words the reply adds to say where it went.
    private func clipWarning(_ warning: String) -> String {
        if let recorder, recorder.session.state == .recording || recorder.session.state == .paused {
            recorder.warn(warning)
            return " (noted in the clip's sidecar)"
        }
        if !pendingClipWarnings.contains(warning) { pendingClipWarnings.append(warning) }
        return " (noted in the next clip's sidecar)"
    }

    // MARK: Status

    /// The live state, derived from sample timestamps.
    public var status: Status {
        scheduler.assertOnSerialContext()
        let session = recorder?.session
        return Status(state: session?.state ?? .idle, scene: session?.scenes.count ?? 0,
                      timer: session?.timer ?? .zero, lens: bank.activeLens,
                      digitalZoom: switcher.digitalZoom(at: scheduler.clock.now()),
                      droppedFrames: recorder?.droppedVideoFrames ?? 0, moviePath: recorder?.moviePath,
                      audioPeak: microphone == nil ? nil : levels.peak ?? SoundLevel.floor)
    }

    /// One line for `status`.
    public func statusLine() -> String {
        let s = status
        var parts = ["state \(s.state.rawValue)"]
        if s.state != .idle && s.state != .finished {
            parts.append("scene \(s.scene)")
            parts.append("time \(DurationParser.clockString(s.timer))")
        }
        parts.append("lens \(s.lens)" + (s.digitalZoom > 1.0001 ? " " + ZoomFactor.text(s.digitalZoom) : ""))
        parts.append("lenses with a camera: \(rig.lenses.map(\.name).filter { cameras[$0] != nil }.joined(separator: ","))")
        if s.droppedFrames > 0 { parts.append("dropped \(s.droppedFrames)") }
        if let path = s.moviePath { parts.append("file \(path)") }
        return parts.joined(separator: " · ")
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
