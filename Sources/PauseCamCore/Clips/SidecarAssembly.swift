import Foundation

/// A clip's sidecar made from what its `Recorder` knows: the scenes of the movie (`MovieScenes`) with their lens
/// segments, markers and sound levels, the pauses, retakes and switches, the streams' counts, the devices' drops,
/// the ISOs and the group block. A value the recorder owns and keeps up to date (the audio of each scene, the drops,
/// the times of `record` and `stop`); the recorder hands it the rest as `Facts` at each write.
///
/// Writing a sidecar at every scene boundary costs the same in a clip's first scene as in its thousandth: the
/// scenes and pauses that can no longer change are encoded once, into `document`. A scene is settled once nothing
/// can reach it any more — frames go to the open segment's scene or a later one, markers to the current scene,
/// audio (in file-time order) to the scene of the last audio or a later one — and the scene with frames after it
/// has begun (until then, empty scenes after it may still be merged into it).
struct SidecarAssembly {
    /// Writes the sidecars (through the finisher's worker when the recorder has one).
    let writer: SidecarWriter
    /// The group the clip records with: every sidecar takes its `group` block from it (`GroupMember.sidecarGroup`),
    /// as of the write. `nil` without a group.
    let group: GroupMember?
    /// The time of `record`: a group's commands from the one applied then on are the clip's.
    var recordTime: MediaTime?
    /// The wall-clock stop (ISO 8601), once the clip is stopped.
    var stopped: String?
    /// Samples (every channel) at 16-bit full scale that went to the sink: clipped, by the rig's gain or before it.
    private(set) var clippedSamples = 0
    /// Units a device's mailbox dropped while this clip recorded (frames of a camera, sample frames of the
    /// microphone), by sidecar device role.
    private(set) var mailboxDrops: [String: Int] = [:]
    /// The audio written in each scene (by scene index), for the sidecar's peak and RMS.
    private var sceneLevels: [Int: SoundLevel] = [:]
    /// Index in `session.scenes` of the scene the last audio went to: audio comes in file-time order, so no later
    /// audio goes to a scene before it.
    private(set) var audioScene: Int?
    /// The sidecar's scenes and pauses that can no longer change, encoded once.
    private var document = SidecarDocument()
    /// How many of `session.scenes` and `session.pauses` the settled entries of `document` cover.
    private(set) var settledScenes = 0
    private var settledPauses = 0
    /// Per voice, the movie-time spans its microphone was gone, in order; the last one's end is `nil` while it is.
    private(set) var voicesGone: [String: [(start: MediaTime, end: MediaTime?)]] = [:]

    /// What the recorder knows that a sidecar describes, as of the write.
    struct Facts {
        var description: Recorder.Description
        var session: Session
        var log: SceneLog
        var moviePath: String
        var videoFramesWritten: Int
        var videoFramesDropped: Int
        var lateVideoFrames: Int
        var audioSamplesWritten: Int
        var lateAudioSamples: Int
        var stopTime: MediaTime?
        var isos: [IsoRecorder]
        /// Each voice's own file (`VoiceWaveSink.path`) by voice name; empty without them.
        var voiceWaveFiles: [String: String] = [:]
    }

    init(writer: SidecarWriter, group: GroupMember?) {
        self.writer = writer
        self.group = group
    }

    /// `count` units from `device` were dropped before the serial context could take them.
    mutating func noteMailboxDrops(device: String, count: Int) {
        guard count > 0 else { return }
        mailboxDrops[device, default: 0] += count
    }

    /// The microphone of `voice` went away at movie time `time` (once: a second notice while gone changes nothing).
    mutating func voiceGone(_ voice: String, at time: MediaTime) {
        if let last = voicesGone[voice]?.last, last.end == nil { return }
        voicesGone[voice, default: []].append((time, nil))
    }

    /// The microphone of `voice` is back at movie time `time`: its open span ends there.
    mutating func voiceBack(_ voice: String, at time: MediaTime) {
        guard var spans = voicesGone[voice], let last = spans.last, last.end == nil else { return }
        spans[spans.count - 1].end = max(time, last.start)
        voicesGone[voice] = spans
    }

    /// The sidecar's `audio.tracks`: every track of the movie, a voice's with its microphone, its own file and the
    /// spans its microphone was gone (one still open ends at `clipEnd` when given: the finished clip's end).
    func tracks(_ settings: MovieSettings.AudioSettings, _ facts: Facts, clipEnd: MediaTime?) -> [Sidecar.AudioTrack]? {
        guard !settings.tracks.isEmpty else { return nil }
        return settings.tracks.map { track in
            let gone = voicesGone[track.title]?.map { span in
                Sidecar.VoiceGone(start: span.start.seconds,
                                  duration: (span.end ?? clipEnd).map { max(.zero, $0 - span.start).seconds })
            }
            return Sidecar.AudioTrack(
                title: track.title, channels: track.channels,
                microphone: facts.description.voices.first { $0.name == track.title }?.device,
                file: facts.voiceWaveFiles[track.title].map(Self.pathBesideSidecar), gone: gone)
        }
    }

    /// Audio `samples` went to the sink at file time `fileTime`: counted for clipping and the level of the scene
    /// showing then.
    mutating func audioWritten(_ samples: [Int16], at fileTime: MediaTime, session: Session) {
        clippedSamples += AudioGain.clippedCount(samples)
        if let movieTime = session.movieTime(ofFileTime: fileTime), let scene = scene(showing: movieTime, in: session) {
            audioScene = scene
            sceneLevels[session.scenes[scene].index, default: SoundLevel()].add(samples)
        }
    }

    /// Index in `session.scenes` of the scene with frames whose part of the movie holds file time `time` (the first
    /// one for a time before every scene); `nil` while no scene has a frame. Starts from the scene the last audio
    /// went to, since audio comes in file-time order: no walk over the whole clip.
    private func scene(showing time: MediaTime, in session: Session) -> Int? {
        let scenes = session.scenes
        var index = audioScene ?? 0
        while index > 0, scenes[index].start.map({ $0 > time }) ?? true { index -= 1 }
        if scenes.indices.contains(index), scenes[index].start == nil {
            guard let first = scenes.indices.first(where: { scenes[$0].start != nil }) else { return nil }
            index = first
        }
        var next = index + 1
        while next < scenes.count {
            if let start = scenes[next].start {
                guard start <= time else { break }
                index = next
            }
            next += 1
        }
        return index
    }

    /// The JSON of `sidecar(complete: false, facts)`, encoding only what is not settled (`settle` first).
    mutating func document(_ facts: Facts) throws -> Data {
        let session = facts.session
        let groups = MovieScenes.groups(of: session.scenes, from: settledScenes)
        let cuts = MovieScenes.cuts(of: session.pauses[settledPauses...], scenes: session.scenes, groups: groups,
                                    leading: settledScenes == 0)
        return try document.encoded(sidecar(complete: false, facts, groups: groups, cuts: cuts))
    }

    /// A marker was renamed: a settled scene may hold it, so every scene is encoded afresh at the next write (and
    /// settled again). A rename is a person's act, rare beside the scene boundaries this saves work on.
    mutating func markerRenamed() {
        document = SidecarDocument()
        settledScenes = 0
        settledPauses = 0
    }

    /// Moves the scenes that can no longer change (and the pauses before them) into `document`.
    mutating func settle(_ facts: Facts) throws {
        let session = facts.session
        let scenes = session.scenes
        var open = min(scenes.count - 1, session.segmentScene ?? 0)
        if facts.description.settings.audio != nil { open = min(open, audioScene ?? 0) }
        // The groups that end before the first scene that may change, and have a scene with frames after them.
        let groups = MovieScenes.groups(of: scenes, from: settledScenes).prefix { $0.members.upperBound <= open }
            .filter { $0.members.upperBound < scenes.count && scenes[$0.members.upperBound].start != nil }
        guard let through = groups.last?.members.upperBound else { return }
        let pauses = session.pauses[settledPauses...].prefix { $0.afterScene - 1 < through }
        let cuts = MovieScenes.cuts(of: pauses, scenes: scenes, groups: Array(groups), leading: settledScenes == 0)
        try document.settle(scenes: groups.map { scene($0, facts) }, pauses: cuts.map(Self.pause))
        settledScenes = through
        settledPauses += pauses.count
    }

    /// The sidecar as of now: every scene of the movie (`MovieScenes`) and every cut.
    func sidecar(complete: Bool, _ facts: Facts) -> Sidecar {
        let session = facts.session
        let groups = MovieScenes.groups(of: session.scenes)
        return sidecar(complete: complete, facts, groups: groups,
                       cuts: MovieScenes.cuts(of: session.pauses[...], scenes: session.scenes, groups: groups,
                                              leading: true))
    }

    /// One scene of the sidecar: the group's scene with frames, and the markers of every scene merged into it, each
    /// within the scene's bounds (a marker given before the scene's first frame showed is at that frame).
    private func scene(_ group: MovieScenes.Group, _ facts: Facts) -> Sidecar.Scene {
        let session = facts.session, log = facts.log
        let scene = session.scenes[group.kept]
        let start = scene.start ?? session.timer
        let end = scene.end ?? start
        let entries = group.members.map { log.entries(ofScene: session.scenes[$0].index) }
        return Sidecar.Scene(
            index: scene.index, name: scene.name, title: scene.title, start: start.seconds,
            duration: scene.duration.seconds,
            lenses: entries.flatMap(\.lensSegments).map { log.lensSegments[$0] }.map {
                Sidecar.LensSegment(lens: $0.lens, start: $0.start.seconds, duration: ($0.end - $0.start).seconds,
                                    repeatedFrames: $0.repeatedFrames, skippedFrames: $0.skippedFrames)
            },
            noSignal: entries.flatMap(\.noSignal).map { log.noSignal[$0] }.map {
                Sidecar.NoSignal(kind: $0.kind.rawValue, lens: $0.lens, start: $0.start.seconds,
                                 duration: ($0.end - $0.start).seconds)
            },
            markers: entries.flatMap(\.markers).map { log.markers[$0] }.map {
                Sidecar.Marker(time: min(max($0.time, start), end).seconds, text: $0.text)
            }, audioPeak: sceneLevels[scene.index]?.peak, audioRms: sceneLevels[scene.index]?.rms)
    }

    private static func pause(_ cut: MovieScenes.Cut) -> Sidecar.Pause {
        Sidecar.Pause(afterScene: cut.afterScene, at: cut.at.seconds, wallDuration: cut.ended.map { ($0 - cut.began).seconds })
    }

    /// The sidecar with the scenes of `groups` and the pauses of `cuts` (all of them, or those not yet settled).
    private func sidecar(complete: Bool, _ facts: Facts, groups: [MovieScenes.Group],
                         cuts: [MovieScenes.Cut]) -> Sidecar {
        let session = facts.session, settings = facts.description.settings
        let audio = settings.audio.map {
            Sidecar.AudioStream(codec: "aac", sampleRate: Int($0.sampleRate), channels: $0.channels,
                                samplesWritten: facts.audioSamplesWritten, lateSamplesDropped: facts.lateAudioSamples,
                                gain: $0.gainDecibels == 0 ? nil : $0.gainDecibels, clippedSamples: clippedSamples,
                                tracks: tracks($0, facts, clipEnd: complete ? session.timer : nil))
        }
        var sidecar = Sidecar(
            rig: facts.description.rigName, movie: (facts.moviePath as NSString).lastPathComponent,
            complete: complete, started: facts.description.started, stopped: stopped, duration: session.timer.seconds,
            video: Sidecar.VideoStream(codec: "h264", width: settings.width, height: settings.height,
                                       fps: settings.rate.framesPerSecond, framesWritten: facts.videoFramesWritten,
                                       framesDropped: facts.videoFramesDropped,
                                       lateFramesDropped: facts.lateVideoFrames),
            audio: audio, scenes: groups.map { scene($0, facts) }, pauses: cuts.map(Self.pause),
            retakes: session.retakes.isEmpty ? nil : session.retakes.map {
                Sidecar.Retake(scene: $0.scene, discardedDuration: $0.discardedDuration.seconds)
            },
            switches: facts.log.switches.map {
                Sidecar.Switch(lens: $0.lens, requested: $0.requested.seconds, effective: $0.effective.seconds,
                               auto: $0.followedVoices == nil ? nil : true, voices: $0.followedVoices)
            },
            devices: facts.description.devices.map { device in
                var device = device
                device.dropped = mailboxDrops[device.role] ?? 0
                return device
            }, warnings: facts.log.warnings)
        if let group, let recordTime {
            sidecar.group = group.sidecarGroup(clipStartedAt: recordTime, stoppedAt: facts.stopTime)
        }
        if !facts.isos.isEmpty { sidecar.iso = facts.isos.map(Self.isoEntry) }
        return sidecar
    }

    /// The sidecar's entry for `iso`: its file beside the sidecar (`NAME.iso/ROLE.mov`) and the frames handed to it
    /// so far (the finish leaves out those of discarded takes).
    static func isoEntry(_ iso: IsoRecorder) -> Sidecar.IsoMovie {
        Sidecar.IsoMovie(lens: iso.lens.role, file: pathBesideSidecar(iso.moviePath), width: iso.lens.width,
                         height: iso.lens.height, fps: iso.lens.rate.framesPerSecond, frames: iso.framesAppended)
    }

    /// `path`'s folder and file name (`NAME.iso/ROLE.mov`): where an ISO lies from its sidecar's folder.
    static func pathBesideSidecar(_ path: String) -> String {
        (path as NSString).pathComponents.suffix(2).joined(separator: "/")
    }
}
