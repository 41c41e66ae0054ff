import Foundation

/// One clip's life from `record` to its saved movie: opening the movie sink and the `Recorder`, the warnings that
/// go into clips' sidecars, and the end — a clip with no video is discarded, any other is closed on the serial
/// context and finished by the `ClipFinisher` on a worker, whose outcome comes back as `ClipOutcome`.
///
/// It knows nothing of devices or lenses: `RigController` tells it which devices a clip has and when a stopped
/// clip may end. Used only on the serial context, except `clipsBeingSaved` and `waitForSavedClips()` (which go
/// through the finisher, `Sendable`, and `SerialContext.perform`). Not `Sendable`: the work it hands to the worker
/// and the context holds it through a `WeakSerialContextBound`.
public final class ClipController {
    public let rig: Rig
    private let sinkFactory: any MovieSinkFactory
    /// Makes the voices' own files (`NAME.iso/VOICE.wav`) of a clip with ISOs and voices; `nil` makes none.
    private let voiceWaveFactory: (any VoiceWaveSinkFactory)?
    private let store: any SidecarStore
    let serialContext: any SerialContext
    let wallClock: @Sendable () -> Date
    let outputDirectory: String
    /// Finishes stopped clips off the serial context.
    let finisher: ClipFinisher
    /// When the context hears that a clip was saved.
    let savedEvents: ClipFinisher.SavedEvents
    /// Watches free space while recording; `nil` leaves the disk unwatched.
    let storage: (any StorageProbe)?
    let storagePolicy: StoragePolicy
    let notify: (EngineEvent) -> Void

    /// The clip being recorded (or stopping, until its grace time has passed); `nil` between clips.
    public private(set) var recorder: Recorder?
    /// What became of the clip since the last `record`.
    public private(set) var outcome: ClipOutcome = .undecided
    /// Warnings waiting for clips that have not started yet.
    public private(set) var warnings: ClipWarnings
    /// The script name for `{script}` in file names, while a script runs.
    public var scriptName: String?
    /// The zone whose time of day the movies' timecode counts (`TimecodeStart.timeOfDay`): the machine's.
    public var timeZone = TimeZone.current

    /// A clip controller writing into `outputDirectory` through `sinkFactory` and `store`. `warnings` go into every
    /// clip's sidecar; `finishing` runs the slow end of each clip (a `SerialQueueWorker` in the program, an
    /// `InlineWorker` in tests that want the clip saved the moment it stops); `savedEvents` says when the context
    /// hears of it; `storage` and `storagePolicy` watch the disk while recording. `voiceWaves` makes each voice's
    /// Broadcast WAV beside the ISOs (`open`).
    public init(rig: Rig, sinkFactory: any MovieSinkFactory, voiceWaves: (any VoiceWaveSinkFactory)? = nil,
                store: any SidecarStore, serialContext: any SerialContext,
                wallClock: @escaping @Sendable () -> Date, outputDirectory: String, warnings: [String] = [],
                storage: (any StorageProbe)? = nil, storagePolicy: StoragePolicy = StoragePolicy(),
                finishing: any BackgroundWorker, savedEvents: ClipFinisher.SavedEvents = .whenFinished,
                notify: @escaping (EngineEvent) -> Void) {
        self.rig = rig
        self.sinkFactory = sinkFactory
        voiceWaveFactory = voiceWaves
        self.store = store
        self.serialContext = serialContext
        self.wallClock = wallClock
        self.outputDirectory = outputDirectory
        self.warnings = ClipWarnings(everyClip: warnings)
        self.storage = storage
        self.storagePolicy = storagePolicy
        finisher = ClipFinisher(worker: finishing)
        self.savedEvents = savedEvents
        self.notify = notify
    }

    // MARK: Record

    /// Opens a new clip's movie (named after the rig's pattern) and its `Recorder`, which becomes `recorder`; the
    /// outcome starts over and the waiting warnings go into it. `devices` are the clip's cameras and microphone as
    /// the sidecar lists them; each of `isos` gets a movie of its own in the clip's `NAME.iso` folder, encoded as
    /// `settings` say at the lens's size and rate, or keeping an MJPEG lens's JPEGs (one that cannot open is a warning in the clip, and the program
    /// records without it). With the rig's `group`, the clip's frame grid is the group's
    /// (`Recorder.Description.phaseAnchor`) and its sidecars carry the group block. `voices` name each voice's
    /// microphone for the sidecar; with ISOs and voices (`settings.audio.tracks` after the mix), each voice's
    /// channel is also written as `NAME.iso/VOICE.wav` (one that cannot open is a warning in the clip). Throws when
    /// the sink cannot open; nothing changes then.
    func open(settings: MovieSettings, devices: [Sidecar.Device], isos: [IsoRecorder.Lens] = [],
              voices: [Recorder.Voice] = [], group: GroupMember? = nil) throws -> Recorder {
        serialContext.assertOnSerialContext()
        let baseName = FileNamePattern.expand(rig.output.namePattern, rig: rig.name, date: wallClock(),
                                              script: scriptName)
        let sink = try sinkFactory.makeSink(directory: outputDirectory, baseName: baseName, settings: settings)
        let sidecarPath = String(sink.moviePath.dropLast(settings.container.rawValue.count)) + "json"
        let startedAt = wallClock()
        var description = Recorder.Description(rigName: rig.name, settings: settings, devices: devices,
                                               sidecarPath: sidecarPath, started: Self.iso8601(startedAt))
        description.startedAt = startedAt
        description.voices = voices
        description.exports = rig.output.exports
        description.phaseAnchor = group?.phaseAnchor
        description.timecode = timecodeClock(group: group, wall: startedAt)
        let recorder = Recorder(description: description, sink: sink, store: store, sidecarWorker: finisher.worker,
                                group: group)
        recorder.serialContext = serialContext
        outcome = .undecided
        for warning in warnings.startClip() { recorder.warn(warning) }
        let isoDirectory = String(sink.moviePath.dropLast(settings.container.rawValue.count + 1)) + ClipFileNames.isoSuffix
        for lens in isos {
            var isoSettings = settings
            isoSettings.width = lens.width
            isoSettings.height = lens.height
            isoSettings.rate = lens.rate
            isoSettings.videoCoding = lens.passesJPEGThrough ? .jpegPassThrough : .h264
            do {
                let isoSink = try sinkFactory.makeIsoSink(directory: isoDirectory, baseName: lens.role,
                                                          settings: isoSettings, program: sink)
                recorder.addIso(IsoRecorder(lens: lens, sink: isoSink))
            } catch {
                recorder.warn("the ISO of lens \(lens.role) could not start: \(error); the clip records without it")
            }
        }
        if !isos.isEmpty, let voiceWaveFactory, let audio = settings.audio {
            // The first track is the mix; each one after it is a voice, whose first channel its file takes.
            for track in audio.tracks.dropFirst() {
                guard let channel = track.channels.first else { continue }
                do {
                    let wave = try voiceWaveFactory.makeVoiceSink(directory: isoDirectory, voice: track.title,
                                                                  sampleRate: audio.sampleRate, startedAt: startedAt,
                                                                  blockWhenBehind: settings.blockWhenBehind)
                    recorder.addVoiceWave(wave, channel: channel)
                } catch {
                    recorder.warn("the sound file of voice \(track.title) could not start: \(error); the clip "
                                  + "records without it")
                }
            }
        }
        self.recorder = recorder
        return recorder
    }

    /// True while a clip records or is paused (not stopping, not between clips).
    public var isRecording: Bool {
        guard let state = recorder?.session.state else { return false }
        return state == .recording || state == .paused
    }

    // MARK: Warnings

    /// Puts `warning` into the sidecar of the clip being recorded or stopped; with no clip it goes nowhere (a
    /// device's news that only a clip cares about).
    func warnClip(_ warning: String) {
        recorder?.warn(warning)
    }

    /// Puts `warning` into the sidecar of the clip recording now, or of the next clip when none is; says which.
    func note(_ warning: String) -> WarningNote {
        if isRecording, let recorder {
            recorder.warn(warning)
            return .clip
        }
        warnings.addForNextClip(warning)
        return .nextClip
    }

    /// Adds a warning that every clip from now on carries (and the clip recording now, if any, does not).
    func warnEveryClip(_ warning: String) {
        warnings.addForEveryClip(warning)
    }

    /// PauseCam stops the clip (a full disk, a failed write): `reason` is the outcome's interruption.
    func interrupt(reason: String) {
        outcome = .interrupted(reason: reason)
    }

    // MARK: Finish

    /// Ends a stopped clip that got no video frame: not kept (no movie, `.partial` or sidecar), and said.
    func discardEmpty() {
        serialContext.assertOnSerialContext()
        guard let recorder else { return }
        self.recorder = nil
        recorder.discard()
        outcome = .nothingRecorded(interruption: outcome.interruption)
        notify(.nothingRecorded)
    }

    /// Closes the stopped clip here and hands the slow rest (encoder drain, remux, thumbnail, final sidecar) to
    /// the finisher; the serial context is free at once, and the "saved" event follows when the outcome is
    /// collected.
    func finish() {
        serialContext.assertOnSerialContext()
        guard let recorder else { return }
        self.recorder = nil
        let job = recorder.prepareFinish(stoppedAt: Self.iso8601(wallClock()))
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        switch savedEvents {
        case .whenFinished:
            finisher.start(job) {
                controller.serialContext.schedule(at: .zero) { controller.object?.collectFinishedClips() }
            }
        case .after(let delay):
            let path = job.moviePath
            finisher.start(job)
            serialContext.schedule(at: serialContext.clock.now() + delay) {
                guard let self = controller.object else { return }
                self.finisher.waitUntilDone(path)
                self.collectFinishedClips(only: path)
            }
        }
        collectFinishedClips()
    }

    /// Takes in the clips the finisher is done with: each becomes the outcome and its event is told. Runs on the
    /// serial context when the worker posts, and when a caller waits for every finish.
    public func collectFinishedClips(only path: String? = nil) {
        serialContext.assertOnSerialContext()
        if path == nil, case .after = savedEvents { return }
        for finished in finisher.collect(only: path) {
            switch finished {
            case .saved(let clip, let timer):
                outcome = .saved(clip, interruption: outcome.interruption)
                let drops = clip.sidecar.devices.filter { ($0.dropped ?? 0) > 0 }
                    .map { ClipSavedEvent.MailboxDrop(role: $0.role, count: $0.dropped ?? 0) }
                notify(.clipSaved(ClipSavedEvent(moviePath: clip.moviePath, scenes: clip.sidecar.scenes.count,
                                                 duration: timer, droppedFrames: clip.sidecar.video.framesDropped,
                                                 mailboxDrops: drops)))
            case .failed(let moviePath, let reason, let partialKept, let isoPartials):
                outcome = .failed(reason: reason, interruption: outcome.interruption)
                notify(.clipFailed(moviePath: moviePath, reason: reason, partialKept: partialKept,
                                   isoPartials: isoPartials))
            }
        }
    }

    /// The movies being finished now (callable from any thread).
    public var clipsBeingSaved: [String] { finisher.saving }

    /// Waits until every stopped clip is finished and its event told; call it off the serial context.
    public func waitForSavedClips() {
        finisher.waitUntilIdle()
        let collect = finisher.saving
        serialContext.perform { for path in collect { collectFinishedClips(only: path) } }
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
