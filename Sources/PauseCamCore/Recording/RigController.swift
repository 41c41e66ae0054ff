import Foundation

/// Runs a rig: the command dispatcher that owns its `DeviceHub` (cameras, microphone, mailboxes, hot-plug) and
/// its `ClipController` (record → finish), and between them the active-lens `LensBank` and `Switcher`. Every
/// `Command` from the shell, a scene script or a remote control arrives here as the same value and gets the same
/// reply.
///
/// Used only on the serial context, so it has no locks; that context never waits on I/O. The hub reports samples
/// and device news (`RigController+Devices`), and a stopped clip is finished by the clip controller's worker,
/// which posts a "saved" event back (`RigController+Finishing`). Lens commands are in `RigController+Lenses`, the
/// periodic checks in `HealthCheck`, the status text in `RigStatus`.
///
/// Not `Sendable`: other threads reach it only through `SerialContext.perform`, and the work it schedules on the
/// context holds it through a `WeakSerialContextBound`, so a timer neither keeps it alive nor touches it off the
/// context.
public final class RigController {
    /// The answer to a command: a line for the user, and whether it was accepted.
    public struct Reply: Sendable, Equatable {
        public var ok: Bool
        public var message: String
        public static func ok(_ message: String) -> Reply { Reply(ok: true, message: message) }
        public static func failed(_ message: String) -> Reply { Reply(ok: false, message: message) }
    }

    /// What the prompt and `status` show.
    public typealias Status = RigStatus
    /// Why a re-plugged microphone was not taken.
    public typealias MicrophoneRefusal = DeviceHub.MicrophoneRefusal

    /// How long after `stop` the clip is finished: samples captured before the stop may still be in flight.
    public static let stopGrace = MediaTime.milliseconds(200)
    /// How late the active lens's next frame may be before the movie holds its last picture: a slot older than this
    /// is decided with the picture before it, so a stalled or unplugged camera never leaves a hole in the movie.
    /// Far above a camera's delivery latency and a slow lens's frame interval (5 fps is 200 ms).
    public static let holdAfter = MediaTime.milliseconds(500)
    /// How often the held picture is extended while no frame comes.
    static let holdInterval = MediaTime.milliseconds(100)

    public let rig: Rig
    /// The rig's devices: what serves each lens, the microphone, their mailboxes and every hot-plug path.
    public let devices: DeviceHub
    /// The clip being recorded, its end, its outcome and the warnings waiting for clips.
    public let clips: ClipController
    /// The rig's digital gain (`audio.gain`), applied to every chunk as it arrives, before the meter.
    let audioGain: AudioGain
    let serialContext: any SerialContext
    /// Called on the serial context with everything the engine does: commands from every source, switches,
    /// unplugged cameras, saved clips. Listeners render it (text for the shell, JSON for `watch`).
    let notify: (EngineEvent) -> Void
    /// The microphone's live level and silence watch.
    var levels = LevelMeter()
    /// A rig of voices: their cards aligned, split, gained and mixed (`RigController+Voices`); `nil` for a rig of
    /// one microphone.
    var desk: VoiceDesk?
    /// `follow:` — which lens the voices want (`RigController+Voices`); `nil` without it.
    var director: FollowDirector?

    /// Routes the active lens's frames (a switch takes effect at its time) and crops them for digital zoom.
    public internal(set) var switcher: Switcher
    /// The lens policy: which cameras run, pending switches, fallback, hold and slate; this class performs it.
    public internal(set) var bank: LensBank
    /// Where the program's lens and zoom are told; `nil` runs without a monitor.
    let monitor: (any MonitorTap)?
    /// The program last told to the monitor, so a change is told once.
    var monitorProgram: (lens: String, digitalZoom: Double)?
    /// True while a timer tells the monitor a digital zoom ramp's progress.
    var monitorFollowsZoomRamp = false
    /// The countdown before a clip, while one runs (`RigController+Countdown`).
    var countdown: PendingCountdown?
    /// The lens armed by `preview LENS` (its tally shows preview), `nil` when none is (`RigController+Tally`).
    public internal(set) var previewLens: String?
    /// Counts countdowns begun, so a cancelled one's timer does nothing.
    var countdownGeneration = 0
    /// The PTZ ramp being stepped on each lens's camera (`RigController+PTZ`).
    var ptzRamps: [String: RunningPTZRamp] = [:]
    /// The rig's group (`group:`), set by the composition root before the first command: the recording commands
    /// given here go to every member through it (`RigController+Group`), and each clip takes it at `record` (its
    /// frame grid and sidecar block). The one place the group is kept. On the serial context only.
    public var group: GroupMember?
    /// The OSC endpoint's counters, shown in the status; set by the composition root when the rig has `osc:`.
    public var osc: OSCCounters?
    /// The program's live outputs (`RigController+Live`); `nil` for a rig without live sinks.
    var live: LiveOutputs?
    /// Makes the live sinks when the devices start (`startDevices`, on the serial context); `nil` afterwards.
    var liveSinkFactory: (any LiveSinkFactory)?
    /// The samples kept for `preroll:` and the backlog of a scene catching up (`RigController+Preroll`); `nil`
    /// without a preroll.
    var prerollState: PrerollState?
    /// The recording time left's measurements (`RigController+TimeLeft`).
    var timeLeftWatch = TimeLeftWatch()

    /// A dispatcher over `devices` and `clips`, which the composition root made for the same `rig` and
    /// `serialContext`; it takes their reports from now on. `monitor` is told the program's lens and zoom (the
    /// devices' frames reach it through the hub); `liveSinks` makes the program's live outputs when the devices
    /// start (`startDevices`), fed from then to `closeLive()`; `notify` gets every engine event.
    public init(rig: Rig, devices: DeviceHub, clips: ClipController, serialContext: any SerialContext,
                monitor: (any MonitorTap)? = nil, voiceResamplers: (any SoundResamplerMaking)? = nil,
                liveSinks: (any LiveSinkFactory)? = nil, notify: @escaping (EngineEvent) -> Void) {
        self.rig = rig
        self.devices = devices
        self.clips = clips
        self.serialContext = serialContext
        self.notify = notify
        audioGain = AudioGain(decibels: rig.audio.options.gainDecibels)
        self.monitor = monitor
        switcher = Switcher(lens: rig.defaultLens)
        bank = LensBank(rig: rig, withCamera: Set(devices.cameras.keys))
        if !rig.audio.voices.isEmpty {
            desk = VoiceDesk(voices: rig.audio.voices, resamplers: voiceResamplers ?? MissingSoundResamplers())
            if let follow = rig.follow {
                director = FollowDirector(follow: follow, voices: rig.audio.voices.map(\.name), startLens: rig.defaultLens)
            }
        }
        devices.report = { [weak self] in self?.handle($0) }
        devices.clipSound = { [weak self] in self?.clipSound ?? .noClip }
        tellMonitorTheProgram()
        liveSinkFactory = liveSinks
        prerollState = rig.preroll.map(PrerollState.init)
    }

    // MARK: Commands

    /// Carries out `command`, given at session-clock `time`. With a `source` (a shell line, a script step, a
    /// remote, a pedal) the command and its reply are told to every listener as an `EngineEvent.command`; the
    /// engine's own stops (a full disk, a failed write) pass none, since their own events say why. With a group,
    /// a recording command from a local source goes to the whole group (`executeHere` keeps it on this member).
    public func execute(_ command: Command, at time: MediaTime, from source: CommandSource? = nil) -> Reply {
        serialContext.assertOnSerialContext()
        if let group, let source, source.isLocal, GroupMessageDecoder.isGroupCommand(command) {
            return sendToGroup(command, from: source, via: group)
        }
        return carryOutAndTell(command, at: time, from: source)
    }

    /// Carries out `command` on this member alone, as `execute` does without a group: a session that ends stops its
    /// own clip at once, while a group's other members go on until the group's `stop`.
    public func executeHere(_ command: Command, at time: MediaTime, from source: CommandSource?) -> Reply {
        serialContext.assertOnSerialContext()
        return carryOutAndTell(command, at: time, from: source)
    }

    private func carryOutAndTell(_ command: Command, at time: MediaTime, from source: CommandSource?) -> Reply {
        // A group's `record` is refused by the member before it gets here; a group's `resume` or `chapter` that
        // would start a clip here is refused by the same rule.
        let refusal: String? = if case .group? = source { clockRefusal(of: command) } else { nil }
        let command = refusal == nil ? source.map { joiningGroupRecording(command, from: $0) } ?? command : command
        let reply = refusal.map { Reply.failed($0) } ?? carryOut(command, at: time, from: source)
        if let group, GroupMessageDecoder.isGroupCommand(command) { group.updateStatus(groupStatus) }
        // A status query changes nothing: a status bar polling it would only flood the listeners.
        if let source, command != .status {
            let now = status
            notify(.command(CommandEvent(source: source, line: CommandParser.line(for: command), ok: reply.ok,
                                         message: reply.message, state: now.state, scene: now.scene,
                                         movieTime: now.timer, lens: now.lens)))
        }
        return reply
    }

    private func carryOut(_ command: Command, at time: MediaTime, from source: CommandSource?) -> Reply {
        if countdown != nil {
            switch command {
            case .stop, .toggle: return cancelCountdown()
            case .record: return .failed("a countdown is running (\(countdown?.secondsLeft ?? 0) s left); `stop` cancels it")
            default: break
            }
        }
        switch command {
        case .record(let name, let requested, let preroll):
            if let refusal = prerollRefusal(preroll) { return .failed(refusal) }
            let seconds = countdownSeconds(requested, source: source)
            guard seconds > 0 else { return record(name: name, at: time, preroll: preroll) }
            let reply = beginCountdown(seconds: seconds, name: name, at: time)
            countdown?.preroll = preroll
            return reply
        case .pause: return state(.pause, at: time)
        case .resume(let name): return resume(name: name, at: time)
        case .stop: return state(.stop, at: time)
        case .toggle: return toggle(at: time, from: source)
        case .chapter(let name): return chapter(name: name, at: time)
        case .retake:
            guard clips.recorder != nil else {
                return .failed("not recording; `retake` throws away the scene being recorded — `record` first")
            }
            return state(.retake, at: time)
        case .lens(let choice): return tookOverFromFollow(lens(choice, at: time), from: source, at: time)
        case .zoom(let choice): return tookOverFromFollow(zoom(choice, at: time), from: source, at: time)
        case .exposure(let choice): return exposure(choice)
        case .focus(.point(let x, let y)): return focus(atX: x, y: y, at: time)
        case .focus(let choice): return focus(choice)
        case .mark(let text): return mark(text)
        case .renameMarker(let number, let name): return renameMarker(number, to: name)
        case .follow(let on): return follow(on, at: time)
        case .preview(let lens): return preview(lens)
        case .live(let on, let destination): return live(on, destination: destination)
        case .voice(let name, let change): return voice(name, change)
        case .status: return .ok(statusLine())
        case .wait: return .failed("`wait` is carried out by the script runner or the shell")
        case .devices, .run, .last, .help, .keys, .quit:
            return .failed("`\(command.word)` is a shell command")
        }
    }

    /// Starts a clip. A clip still stopping is handed to the finisher first, so the new one starts at once.
    private func record(name: String?, at time: MediaTime, preroll: MediaTime? = nil) -> Reply {
        if let recorder = clips.recorder, recorder.session.state != .finished {
            if recorder.session.state == .stopping { finalizeIfStopping() } else {
                return .failed("already recording (scene \(recorder.session.scenes.count)); use `stop` first")
            }
        }
        guard bank.running.contains(bank.activeLens) else {
            return .failed("lens \(bank.activeLens) has no camera; choose another with `lens NAME`")
        }
        let settings = movieSettings()
        var sidecarDevices = rig.lenses.compactMap { lens in
            devices.cameras[lens.name].map {
                Sidecar.Device(role: lens.name, name: $0.displayName,
                               latency: lens.latency == .zero ? nil : lens.latency.seconds,
                               formatChoice: $0.formatChoice)
            }
        }
        if let microphone = devices.microphone, settings.audio != nil {
            sidecarDevices.append(Sidecar.Device(role: DeviceHub.microphoneRole, name: microphone.displayName))
        }
        for (index, slot) in devices.voiceCards.enumerated() {
            if let microphone = slot.microphone {
                sidecarDevices.append(Sidecar.Device(role: devices.voiceCardRole(index), name: microphone.displayName))
            }
        }
        // Samples are let in before the sink opens (opening x264 and the file takes a while): the frames captured
        // meanwhile belong to the clip and wait in the mailboxes. Closed again if the sink cannot open.
        setClipIntake(true)
        let recorder: Recorder
        do {
            recorder = try clips.open(settings: settings, devices: sidecarDevices, isos: isoLenses(),
                                      voices: recordedVoices(), group: group)
        } catch {
            setClipIntake(false)
            return .failed("cannot start recording: \(error)")
        }
        scheduleHealthCheck(for: recorder, HealthCheck(policy: clips.storagePolicy))
        scheduleVideoHold(for: recorder)
        let edge = prerollRecordEdge(press: time, asked: preroll)
        let reply = state(.record(name: name), at: edge)
        if reply.ok { handOverPreroll(to: recorder, from: edge, press: time) }
        return reply
    }

    /// The lenses of `output.iso` as the cameras deliver them now (`IsoRecorder.Lens.planned`).
    private func isoLenses() -> [IsoRecorder.Lens] {
        IsoRecorder.Lens.planned(for: rig, formats: devices.cameras.mapValues(\.format))
    }

    private func movieSettings() -> MovieSettings {
        let output = rig.output
        var audio = devices.microphone.map {
            MovieSettings.AudioSettings(sampleRate: $0.sampleRate, channels: $0.channels, bitrate: output.audioBitrate,
                                        declick: rig.audio.options.declick, gainDecibels: rig.audio.options.gainDecibels)
        }
        if let desk { audio = voiceAudioSettings(desk) }
        return MovieSettings(width: output.width, height: output.height, rate: output.rate,
                             container: output.container, preset: output.preset, crf: output.crf,
                             keyframeInterval: output.keyframeInterval, audio: audio,
                             blockWhenBehind: serialContext.timeWaitsForWork)
    }

    func state(_ command: Session.Command, at time: MediaTime) -> Reply {
        // A scene still catching up on its preroll takes it all before the command's edges apply.
        drainPrerollBacklog()
        guard let recorder = clips.recorder else {
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
                let controller = WeakSerialContextBound(self, serialContext: serialContext)
                let clip = WeakSerialContextBound(recorder, serialContext: serialContext)
                serialContext.schedule(at: stopTime + Self.stopGrace) {
                    guard let self = controller.object, let recorder = clip.object, recorder === self.clips.recorder else {
                        return
                    }
                    self.finalizeIfStopping()
                }
            }
            let scene = recorder.session.scenes.last
            switch command {
            case .record: return .ok("recording scene 1\(scene?.name.map { " \"\($0)\"" } ?? "") to \(recorder.moviePath)")
            case .pause: return .ok("paused at \(DurationParser.clockString(recorder.session.timer)) (scene \(scene?.index ?? 0))")
            case .resume: return .ok("recording scene \(scene?.index ?? 0)\(scene?.name.map { " \"\($0)\"" } ?? "")")
            case .stop: return .ok("stopping…")
            case .retake:
                let from = DurationParser.clockString(recorder.session.timer)
                return .ok("retake: scene \(scene?.index ?? 0) again from \(from)")
            case .chapter: return .ok("chapter: scene \(scene?.index ?? 0)\(scene?.name.map { " \"\($0)\"" } ?? "") from the next frame")
            }
        }
    }

    // MARK: Status

    /// The live state, derived from sample timestamps, and the clips being saved.
    public var status: Status {
        serialContext.assertOnSerialContext()
        let session = clips.recorder?.session
        var status = Status(state: session?.state ?? .idle, scene: session?.scenes.count ?? 0,
                      timer: session?.timer ?? .zero, lens: bank.activeLens,
                      digitalZoom: switcher.digitalZoom(at: serialContext.clock.now()),
                      droppedFrames: clips.recorder?.droppedVideoFrames ?? 0, moviePath: clips.recorder?.moviePath,
                      lensesWithCamera: rig.lenses.map(\.name).filter { devices.cameras[$0] != nil }, saving: clips.clipsBeingSaved,
                      audioPeak: devices.microphone == nil ? nil : levels.peak ?? SoundLevel.floor,
                      countdown: countdown?.secondsLeft,
                      clippedSamples: clips.recorder?.description.settings.audio == nil ? nil : clips.recorder?.clippedSamples,
                      lensZoom: (rig.lenses.first { $0.name == bank.activeLens }?.zoom ?? 1)
                          * opticalFactor(lens: bank.activeLens))
        addVoices(to: &status)
        status.tally = currentTally.entries
        status.live = liveStatus
        status.timecode = clips.recorder?.currentTimecode
        status.osc = osc?.snapshot
        status.timeLeft = recordingTimeLeft
        return status
    }

    public func statusLine() -> String { status.line }
}
