import Foundation

/// One clip being recorded: the `Session` state machine, the `OutputClock`, the `Retimer`, the `SceneLog`, and the
/// sink they feed.
///
/// Used only on the serial context (the `SerialContext`'s), so it needs no locks: the session decides, the output clock
/// puts the active lens's frames on the movie's own frame grid, the retimer places the grid's slots and the audio,
/// and this class performs what they return — appending to the sink and the ISOs, writing the sidecar (made by its
/// `SidecarAssembly`) at every scene boundary, and finishing the movie with one chapter per scene. Not `Sendable`: the timers that watch a clip hold its
/// recorder through a `WeakSerialContextBound`, and the slow end of the clip goes to a worker as a `ClipFinishJob`.
public final class Recorder {
    public private(set) var session: Session
    public private(set) var retimer: Retimer
    /// The movie's frame grid: whatever rate the lens delivers, the movie gets one frame per output frame.
    public private(set) var outputClock: OutputClock
    public private(set) var log: SceneLog
    /// What the program keeps of capture time and at which file time, slot by slot: the ISOs follow it.
    public private(set) var timeline: ProgramTimeline
    /// The lenses recorded each into a movie of its own on the program's timeline (`output.iso`).
    public private(set) var isos: [IsoRecorder] = []
    public let description: Description
    private let sink: any MovieSink
    /// The sidecar made from this recorder's state, and what only the sidecar needs (levels, drops, settled scenes).
    private var sidecar: SidecarAssembly
    private var videoFramesAppended = 0
    private var audioSamplesAppended = 0
    private var sinkError: Error?
    /// The serial context this recorder lives on, checked at every entry point; `nil` checks nothing (a recorder
    /// driven directly by a test).
    public var serialContext: (any SerialContext)?
    /// The time of `stop`: at the finish, the grid's slots before it are decided with the last picture.
    private var stopTime: MediaTime?
    /// Repeats, skips, held and slate stretches and switches, counted on the slots kept, for the sidecar.
    private var ledger = SlotLedger()
    /// Slots the output clock decided before their time came (a frame up to half a frame early decides its slot at
    /// once), in time order. A pause or stop given before such a slot's time may still come, so a slot reaches the
    /// retimer only once the serial context has seen that time pass; otherwise a pause given just after the frame
    /// came would keep a slot after the pause.
    private var earlySlots: [OutputClock.Slot] = []
    /// The latest time known to have passed: the newest command time or sample capture time seen.
    private var timeSeen: MediaTime?
    /// `stop` came while recording (not paused): the frames before it that no slot showed were skipped.
    private var stoppedWhileRecording = false
    /// The frames left unshown at the stop were counted (`noteStop`).
    private var stopNoted = false
    /// Fades at every seam (`audio.declick`); `nil` when off or video only.
    private var declicker: Declicker?
    /// Each voice's own file (`NAME.iso/VOICE.wav`, with `output.iso` and a rig of voices), fed its channel of the
    /// sound the movie gets.
    public private(set) var voiceWaves: [VoiceWave] = []
    /// A cut `follow` announced (`noteFollowCut`) whose switch has not been noted yet.
    private var followCut: (lens: String, voices: [String])?

    /// One voice's file being written: its sink, the channel of the recorder's chunks it takes, and the error that
    /// stopped it (the clip goes on without it).
    /// How far (in samples, + later) the movie's sound is moved so that the finish's whole-packet cuts leave it on
    /// the picture (`packetAligned`), and the samples still to drop for it.
    private var packetShift: Int64 = 0
    private var packetShiftDrop = 0

    public struct VoiceWave {
        public let sink: any VoiceWaveSink
        public let channel: Int
        public internal(set) var failure: Error?
    }

    /// A recorder writing to `sink`; its sidecars go to `store`, through `sidecarWorker` when given (the finisher's:
    /// the serial context then never waits for an fsync). With a `group`, every sidecar the clip writes takes its
    /// `group` block from it (`GroupMember.sidecarGroup`), as of the write.
    public init(description: Description, sink: any MovieSink, store: any SidecarStore,
                sidecarWorker: (any BackgroundWorker)? = nil, group: GroupMember? = nil) {
        self.description = description
        self.sink = sink
        sidecar = SidecarAssembly(writer: SidecarWriter(store: store, worker: sidecarWorker), group: group)
        let frameDuration = description.settings.rate.frameDuration
        session = Session(frameDuration: frameDuration)
        retimer = Retimer(frameDuration: frameDuration)
        outputClock = OutputClock(frameDuration: frameDuration, phaseAnchor: description.phaseAnchor)
        timeline = ProgramTimeline(frameDuration: frameDuration)
        log = SceneLog(frameDuration: frameDuration)
        declicker = description.settings.audio.flatMap { $0.declick ? Declicker(sampleRate: $0.sampleRate) : nil }
    }

    /// Records `iso` beside the program from now on (before the first frame: its movie starts with the program's).
    public func addIso(_ iso: IsoRecorder) {
        isos.append(iso)
    }

    /// Writes channel `channel` of every chunk of sound the movie gets into `sink` from now on (before the first
    /// frame: the file starts with the movie).
    public func addVoiceWave(_ sink: any VoiceWaveSink, channel: Int) {
        voiceWaves.append(VoiceWave(sink: sink, channel: channel))
    }

    /// Offers a frame of any lens, as captured: the ISO of its lens, if it has one, places it on the program's
    /// timeline.
    public func offerIsoFrame(_ frame: VideoFrame) {
        serialContext?.assertOnSerialContext()
        guard sinkError == nil else { return }
        for iso in isos where iso.lens.role == frame.lens { iso.offer(frame, timeline: timeline) }
    }

    /// The finished movie's path (reserved when the sink was made).
    public var moviePath: String { sink.moviePath }

    /// Where the movie is written while recording (`NAME.mov.partial`).
    public var partialPath: String { sink.partialPath }

    /// True once the `.partial` was deleted while recording (see `MovieSink.partialFileDeleted`).
    public var partialFileDeleted: Bool { sink.partialFileDeleted }

    /// What finishing this clip's movies — the program, then every ISO — will need in free space beyond their
    /// `.partial`s, as they stand now; `partialBytes` gives a `.partial`'s size from its path.
    public func finishingReserve(partialBytes: (String) -> Int64) -> FinishingReserve {
        // Every audio track has its own packets, each as many as the first's.
        let audioPackets = FinishingReserve.samples(videoFrames: 0, audioSamples: audioSamplesAppended)
            * max(1, description.settings.audio?.tracks.count ?? 1)
        let program = FinishingReserve.Movie(finishing: sink.finishing, partialBytes: partialBytes(sink.partialPath),
                                             samples: videoFramesAppended + audioPackets)
        let isoMovies = isos.map { iso in
            FinishingReserve.Movie(finishing: iso.sink.finishing, partialBytes: partialBytes(iso.sink.partialPath),
                                   samples: iso.framesAppended + audioPackets)
        }
        // A title made unique gains a suffix (" 2"): 21 bytes covers any number.
        let titleBytes = session.scenes.reduce(0) { $0 + $1.title.utf8.count + 21 }
        return FinishingReserve(movies: [program] + isoMovies, chapters: session.scenes.count,
                                chapterTitleBytes: titleBytes)
    }

    /// Frames the sink dropped so far because the encoder fell behind.
    public var droppedVideoFrames: Int { sink.droppedVideoFrames }
    /// Suspensions of the process noticed while this clip recorded (the video hold's ticks came late).
    public var suspensions = 0
    /// The last round of the clip's `HealthCheck`: which drops were put down to a suspension.
    public var healthCheck: HealthCheck?

    /// The first sink error, if appending failed (disk full…). Recording cannot go on after one.
    public var failure: Error? { sinkError }

    /// True once a video frame reached the sink. A clip that ends without one is no movie: `discard` it.
    public var hasVideo: Bool { videoFramesAppended > 0 }

    /// True once the movie keeps a video frame: one reached the sink outside every take that `retake` threw away.
    /// A clip whose only take was thrown away (a `retake` in scene 1, then `stop`) is as empty as one that got no
    /// frame: `discard` it.
    public var hasKeptVideo: Bool { videoFramesAppended > discardedVideoFrames }

    /// Frames of the `.partial` in discarded takes (`retake`), which the movie leaves out. The spans lie on the
    /// frame grid (a take ends one frame after its last frame; the next begins at the seam).
    private var discardedVideoFrames: Int {
        session.discardedSpans.reduce(0) { count, span in
            count + Int(((span.upperBound - span.lowerBound).seconds / session.frameDuration.seconds).rounded())
        }
    }

    /// Applies a state command at session-clock `time`. The returned actions that concern the caller
    /// (`finalize`) are passed back; the rest are done here.
    public func handle(_ command: Session.Command, at time: MediaTime) -> Result<[Session.Action], Session.Rejection> {
        serialContext?.assertOnSerialContext()
        if command == .stop && session.state == .recording { stoppedWhileRecording = true }
        let result = session.handle(command, at: time)
        guard case .success(let actions) = result else { return result }
        if case .record = command { sidecar.recordTime = time }
        for action in actions {
            switch action {
            case .openMovie, .finalize, .sceneBegan:
                break
            case .startRetimer(let t):
                retimer.start(at: t)
                outputClock.restart(at: t)
                // Early slots of the old grid at or after the resume belong to no segment: the new grid starts
                // at the first frame after it (the output clock never decides old slots past a restart it knows).
                let past = earlySlots.firstIndex { $0.frame.pts >= t } ?? earlySlots.count
                for slot in earlySlots[past...] {
                    ledger.decided(slot, fileTime: nil, startsSegment: false, scene: 0, log: &log)
                }
                earlySlots.removeSubrange(past...)
            case .pauseRetimer(let t) where command == .retake:
                retimer.pause(at: t)
                if let scene = session.currentScene { log.discardTake(ofScene: scene.index, from: session.timer) }
            case .pauseRetimer(let t): retimer.pause(at: t)
            case .stopRetimer(let t):
                retimer.stop(at: t)
                stopTime = t
            case .sceneEnded:
                // A clip without a frame yet has nothing to describe, and may never have (see `discard`).
                if hasVideo { writeSidecar() }
            }
        }
        // After the command's edges: an early slot at or after them now meets them in the retimer.
        passed(time)
        return result
    }

    /// Offers a frame of the active lens (already routed and cropped by the `Switcher`). It reaches the movie
    /// through the output clock, in the slots it decides: a frame may show in several slots (a slower lens), in none
    /// (a faster one), and one frame later than it came (a slot is decided by the next frame). A slot decided before
    /// its time (by a frame up to half a frame early) reaches the retimer once that time has passed, so a command
    /// given in between still applies to it.
    public func appendVideo(_ frame: VideoFrame) {
        serialContext?.assertOnSerialContext()
        guard sinkError == nil else { return }
        passed(frame.pts)
        let lateBefore = outputClock.lateFrames
        let slots = outputClock.offer(frame)
        if outputClock.lateFrames == lateBefore { ledger.offered(frame) }
        for slot in slots { appendWhenDue(slot) }
    }

    /// Offers the "no signal" slate (`NoSignalSlate`) for `lens`, lost at capture time `lostAt`, stamped `time`:
    /// it fills the slots from `time` until a lens delivers again. Its text gives the movie time of the loss.
    public func appendSlate(lens: String, width: Int, height: Int, at time: MediaTime) {
        serialContext?.assertOnSerialContext()
        guard sinkError == nil else { return }
        let lostAt = ledger.lostAt ?? session.timer
        if ledger.lostAt == nil { ledger.lost(lens: lens, since: time, fileTime: lostAt) }
        let slate = NoSignalSlate.frame(width: width, height: height, lens: lens, lostAt: lostAt, pts: time)
        passed(time)
        for slot in outputClock.offer(slate) { appendWhenDue(slot) }
    }

    /// No lens delivers since `lens`'s frame captured at `since`: the slots after it that repeat its picture are
    /// logged as held (sidecar `no_signal`), until a new picture shows.
    public func noteSignalLost(lens: String, since: MediaTime) {
        ledger.lost(lens: lens, since: since, fileTime: session.timer)
    }

    /// A switch to `lens` was asked for at capture time `requested`: its first kept slot logs the switch (sidecar
    /// `switches`) with the requested and the effective file time.
    public func noteSwitch(to lens: String, requested: MediaTime) {
        let followed = followCut.flatMap { $0.lens == lens ? $0.voices : nil }
        followCut = nil
        ledger.switchAsked(to: lens, requested: requested, followedVoices: followed)
    }

    /// `follow` cuts to `lens` because `voices` speak (empty: nobody does): the next switch to `lens` noted
    /// (`noteSwitch`) is logged as automatic (sidecar `switches[].auto`, `voices`). Call it before that switch;
    /// called just after it, it marks the switch still waiting for its first picture.
    public func noteFollowCut(lens: String, voices: [String]) {
        serialContext?.assertOnSerialContext()
        if ledger.markPendingSwitchFollowed(lens: lens, voices: voices) {
            followCut = nil
        } else {
            followCut = (lens, voices)
        }
    }

    /// The microphone of `voice` went away (unplugged): from the movie time now its track is silent, until
    /// `noteVoiceBack`. The sidecar lists the span under the voice's track (`audio.tracks[].gone`).
    public func noteVoiceGone(_ voice: String) {
        serialContext?.assertOnSerialContext()
        sidecar.voiceGone(voice, at: session.timer)
    }

    /// The microphone of `voice` is back: its track has sound again from the movie time now.
    public func noteVoiceBack(_ voice: String) {
        serialContext?.assertOnSerialContext()
        sidecar.voiceBack(voice, at: session.timer)
    }

    /// Decides the grid's slots before `time` with the last picture: no earlier frame can come any more (the camera
    /// went away, or is late beyond what the caller waits for). The picture is held rather than leaving a hole.
    public func holdVideo(before time: MediaTime) {
        guard sinkError == nil else { return }
        passed(time)
        for slot in outputClock.flush(before: time) { appendWhenDue(slot) }
        for iso in isos { iso.hold(before: time, timeline: timeline) }
    }

    /// The serial context has seen `time` pass: the early slots up to it go on to the retimer.
    private func passed(_ time: MediaTime) {
        if timeSeen.map({ time > $0 }) ?? true { timeSeen = time }
        guard sinkError == nil else { return }
        let due = earlySlots.prefix { slot in timeSeen.map { slot.frame.pts <= $0 } ?? false }
        guard !due.isEmpty else { return }
        earlySlots.removeFirst(due.count)
        for slot in due { append(slot) }
    }

    /// A slot to the retimer now if its time has passed, else once it has (in order, after the early ones before it).
    private func appendWhenDue(_ slot: OutputClock.Slot) {
        if earlySlots.isEmpty, let timeSeen, slot.frame.pts <= timeSeen {
            append(slot)
        } else {
            earlySlots.append(slot)
        }
    }

    /// Every slot before the stop is decided: the frames before it that none showed were skipped (once).
    private func noteStop(at stop: MediaTime) {
        guard !stopNoted else { return }
        stopNoted = true
        ledger.clipStopped(at: stop, recording: stoppedWhileRecording, scene: session.scenes.count, log: &log)
    }

    /// One slot of the output grid to the retimer and, when kept, to the sink; a lens change starts a keyframe.
    ///
    /// A lens change on a slot the retimer drops needs no carrying over: slots are stamped with increasing grid
    /// times, so the retimer drops only outside a segment (the next appended frame starts one: a keyframe anyway)
    /// or on an overflow (nothing after it is appended). The one "keyframe owed" is the sink's, for a picture its
    /// encoder queue had to drop (`MovieWriter`).
    private func append(_ slot: OutputClock.Slot) {
        let frame = slot.frame
        let keyframe = slot.lensChanged
        let decision = retimer.retimeVideo(pts: frame.pts)
        guard case .append(let fileTime, let startsSegment) = decision else {
            if let stopTime, frame.pts >= stopTime { noteStop(at: stopTime) }
            ledger.decided(slot, fileTime: nil, startsSegment: false, scene: 0, log: &log)
            timeline.dropped(slotAt: frame.pts)
            for iso in isos { iso.advance(timeline) }
            flushAudio()
            return
        }
        let sceneBefore = session.segmentScene
        session.videoAppended(capturePTS: frame.pts, fileTime: fileTime, startsSegment: startsSegment)
        let sceneIndex = (session.segmentScene ?? (session.scenes.count - 1)) + 1
        // The log is in movie time; a frame of a discarded take (late, after the `retake`) is in no scene.
        ledger.decided(slot, fileTime: session.movieTime(ofFileTime: fileTime), startsSegment: startsSegment,
                       scene: sceneIndex, log: &log)
        // Every scene starts on a keyframe, a `chapter`'s too: a `retake` cuts the movie there, and the frames kept
        // before the cut must not depend on frames after it.
        let forceKeyframe = keyframe || startsSegment || session.segmentScene != sceneBefore
        do {
            if startsSegment { sink.setThumbnail(frame) }
            try sink.appendVideo(frame, at: fileTime, keyframe: forceKeyframe)
            videoFramesAppended += 1
        } catch {
            sinkError = error
        }
        timeline.kept(slotAt: frame.pts, fileTime: fileTime, startsSegment: startsSegment)
        if session.segmentScene != sceneBefore && !startsSegment { timeline.sceneBegan(at: fileTime) }
        for iso in isos { iso.advance(timeline) }
        if startsSegment { sendAudio(declicker?.seam(at: fileTime) ?? []) }
        flushAudio()
        if startsSegment { writeSidecar() }
    }

    /// Offers captured audio; it reaches the sink once video has passed it.
    public func appendAudio(_ chunk: AudioChunk) {
        serialContext?.assertOnSerialContext()
        guard sinkError == nil else { return }
        let oneSample = MediaTime(value: 1, timescale: chunk.sampleRate)
        passed(chunk.end - oneSample)
        // Audio more than `maximumAudioLead` ahead of video decides the timeline without it, and a slot that comes
        // later from before then is dropped as late. So when video has stalled (every camera gone) and the hold
        // timer runs late (a busy serial context), the slots through there are decided first, showing the held
        // picture: otherwise they are lost, and the movie gets a hole in its constant rate (a TCG guest's hot-plug
        // movie had a 14-frame step). With video flowing, or the hold timer on time, nothing is left to decide here.
        if let decided = Retimer.decidedWithoutVideo(byAudioEndingAt: chunk.end) {
            holdVideo(before: decided + oneSample)
        }
        retimer.retimeAudio(chunk)
        flushAudio()
    }

    /// The audio source ended mid-clip (the microphone was unplugged): the sound fades out where it stopped, and
    /// fades in again where a microphone brings it back (see `Declicker.gap()`).
    public func audioSourceEnded() {
        serialContext?.assertOnSerialContext()
        guard declicker != nil, sinkError == nil else { return }
        sendAudio(declicker!.gap())
    }

    private func flushAudio() {
        for piece in retimer.takeAudio() {
            if declicker != nil { sendAudio(declicker!.process(piece)) } else { sendAudio([piece]) }
        }
    }

    private func sendAudio(_ pieces: [AudioChunk]) {
        for piece in pieces where description.settings.audio != nil && sinkError == nil {
            do {
                for moved in packetAligned(piece) {
                    try sink.appendAudio(moved)
                    for iso in isos { iso.appendAudio(moved) }
                }
                appendVoiceWaves(piece)
                audioSamplesAppended += piece.frameCount
                sidecar.audioWritten(piece.samples, at: piece.pts, session: session)
            } catch {
                sinkError = error
                return
            }
        }
    }

    /// `piece` as the movie's sound takes it after the takes `retake` threw away: the finish cuts a movie's sound
    /// at whole codec packets (`WholePacketAudioCut`: what it removes is the picture removed, rounded to a packet),
    /// so the sound after each such cut is moved here, once, by what that rounding will take or give — a little
    /// silence inserted, or a few samples dropped, at the first sound of the take that follows (where the declick
    /// has faded in from silence). After the finish every track is then exactly on the picture again, not within
    /// half a packet. The voice files, cut at the exact samples, take the sound unmoved.
    private func packetAligned(_ piece: AudioChunk) -> [AudioChunk] {
        let packet = Int64(sink.audioPacketSamples)
        guard packet > 0 else { return [piece] }
        let rate = piece.sampleRate
        var removed: Int64 = 0
        for span in session.discardedSpans where span.upperBound <= piece.pts {
            removed += (try? (span.upperBound - span.lowerBound).rescaled(to: rate, rounding: .nearest).value) ?? 0
        }
        let wanted = (removed + packet / 2) / packet * packet - removed
        var moved: [AudioChunk] = []
        if wanted != packetShift {
            let delta = wanted - packetShift
            if delta > 0 {
                moved.append(AudioChunk(pts: piece.pts + MediaTime(value: packetShift, timescale: rate),
                                        sampleRate: rate, channels: piece.channels,
                                        samples: [Int16](repeating: 0, count: Int(delta) * piece.channels)))
            } else {
                packetShiftDrop += Int(-delta)
            }
            packetShift = wanted
        }
        var kept = piece
        if packetShiftDrop > 0 {
            let dropped = min(packetShiftDrop, piece.frameCount)
            packetShiftDrop -= dropped
            guard dropped < piece.frameCount else { return moved }
            kept = piece.slice(dropped..<piece.frameCount)
        }
        kept.pts = kept.pts + MediaTime(value: packetShift, timescale: rate)
        moved.append(kept)
        return moved
    }

    /// Each voice's channel of `piece` to its file. A file that fails stops (its error goes into the sidecar at the
    /// finish); the movie and the other voices go on.
    private func appendVoiceWaves(_ piece: AudioChunk) {
        for index in voiceWaves.indices where voiceWaves[index].failure == nil {
            let channel = voiceWaves[index].channel
            guard channel >= 0, channel < piece.channels else { continue }
            let samples = stride(from: channel, to: piece.samples.count, by: piece.channels).map { piece.samples[$0] }
            do {
                try voiceWaves[index].sink.append(samples, at: piece.pts)
            } catch {
                voiceWaves[index].failure = error
            }
        }
    }

    /// Adds a marker at the current file time in the current scene, named `text` or, when nil, by its number.
    public func mark(_ text: String?) -> Result<SceneLog.Marker, Session.Rejection> {
        serialContext?.assertOnSerialContext()
        guard let scene = session.currentScene, session.state == .recording || session.state == .paused else {
            return .failure(Session.Rejection(message: "not recording; markers belong to a clip (`record` first)"))
        }
        return .success(log.mark(text, scene: scene.index, at: session.timer))
    }

    /// Names marker `number` of this clip `text` (`mark rename`). The sidecar written next carries the new name,
    /// whichever scene holds the marker.
    public func renameMarker(_ number: Int, to text: String) -> Result<SceneLog.Marker, Session.Rejection> {
        serialContext?.assertOnSerialContext()
        guard session.state == .recording || session.state == .paused else {
            return .failure(Session.Rejection(message: "not recording; a marker is named while its clip records"))
        }
        switch log.renameMarker(number, to: text) {
        case .success(let marker):
            sidecar.markerRenamed()
            return .success(marker)
        case .failure(.noSuchMarker(let count)):
            return .failure(Session.Rejection(message: "this clip has no marker \(number) "
                + (count == 0 ? "(it has none yet)" : "(it has \(count): 1 to \(count))")))
        case .failure(.discarded):
            return .failure(Session.Rejection(message: "marker \(number) went with the take `retake` threw away"))
        }
    }

    /// Adds a warning to the clip's sidecar.
    public func warn(_ text: String) { log.warn(text) }

    /// Units a device's mailbox dropped while this clip recorded (frames of a camera, sample frames of the
    /// microphone), by sidecar device role.
    public var mailboxDrops: [String: Int] { sidecar.mailboxDrops }

    /// Samples (every channel) at 16-bit full scale that went to the sink: clipped, by the rig's gain or before it.
    public var clippedSamples: Int { sidecar.clippedSamples }

    /// How many of `session.scenes` the sidecar has settled (encoded once for good).
    var settledScenes: Int { sidecar.settledScenes }

    /// `count` units from `device` (a lens role, or "microphone") were dropped before the serial context could take
    /// them: the sidecar's device entry counts them.
    public func noteMailboxDrops(device: String, count: Int) {
        sidecar.noteMailboxDrops(device: device, count: count)
    }

    /// Finishes the clip after `stop`, here and now: `prepareFinish` then the job's `run`. For callers that own the
    /// recorder outright (tests); the controller runs the job on its finishing worker instead.
    public func finish(stoppedAt: String) throws -> Clip {
        try prepareFinish(stoppedAt: stoppedAt).run()
    }

    /// Closes the timeline after `stop` (on the serial context): decides the last slots, flushes the audio, and
    /// hands everything the slow part needs — the sink, the chapters, the sidecars — to a `ClipFinishJob`. After
    /// this the recorder is done; the job owns the sink and may run on any thread.
    public func prepareFinish(stoppedAt: String) -> ClipFinishJob {
        serialContext?.assertOnSerialContext()
        if let stopTime { holdVideo(before: stopTime) }
        // Nothing more can come: the slots still early meet the stop (and are dropped when after it).
        for slot in earlySlots where sinkError == nil { append(slot) }
        earlySlots.removeAll()
        if let stopTime { noteStop(at: stopTime) }
        retimer.finish()
        flushAudio()
        sendAudio(declicker?.finish() ?? [])
        timeline.finish()
        for iso in isos { iso.close(timeline) }
        sidecar.stopped = stoppedAt
        let interim = makeSidecar(complete: false)
        if sinkError == nil { session.markFinished() }
        return ClipFinishJob(sink: sink, sidecars: sidecar.writer, chapters: chapters(),
                             discardedSpans: session.discardedSpans, discardedVideoFrames: discardedVideoFrames,
                             sidecarPath: description.sidecarPath,
                             interimSidecar: interim, finishedSidecar: makeSidecar(complete: true),
                             sinkError: sinkError, timer: session.timer, exports: description.exports,
                             suspendedDrops: healthCheck?.excusedDrops(atEnd: droppedVideoFrames, suspensions: suspensions)
                                 ?? (suspensions > 0 ? droppedVideoFrames : 0),
                             isos: isos.map { iso in
                                 ClipFinishJob.Iso(sink: iso.sink, entry: SidecarAssembly.isoEntry(iso),
                                                   discardedFrames: iso.framesIn(session.discardedSpans),
                                                   failure: iso.failure)
                             },
                             voiceWaves: voiceWaves.map {
                                 ClipFinishJob.VoiceWave(sink: $0.sink, failure: $0.failure.map { "\($0)" })
                             })
    }

    /// Abandons a clip that keeps no video frame: the sink removes what it wrote (the `.partial`), and the sidecar,
    /// first written with the first frame, is removed when there was one (a take thrown away by `retake`), so
    /// nothing of the clip is left on disk.
    public func discard() {
        retimer.finish()
        sink.discard()
        for iso in isos { iso.sink.discard() }
        for wave in voiceWaves { wave.sink.discard() }
        if hasVideo { sidecar.writer.remove(description.sidecarPath) }
    }

    /// One chapter per scene of the movie (`MovieScenes`: a scene that got frames, with the empty ones merged into
    /// it), from its first frame to the end of its last: the same scenes as the sidecar's.
    public func chapters() -> [Chapter] {
        ChapterTitles.unique(MovieScenes.groups(of: session.scenes).map { group in
            let scene = session.scenes[group.kept]
            return Chapter(title: scene.title, start: scene.start ?? .zero, end: scene.end ?? .zero)
        })
    }

    /// Writes the sidecar as of now (through the writer, usually on the finisher's worker), encoding again only
    /// what can still change (`SidecarAssembly`).
    private func writeSidecar() {
        do {
            try sidecar.writer.write(try sidecarDocument(), to: description.sidecarPath)
        } catch {
            log.warn("the sidecar could not be written: \(error)")
        }
    }

    /// The JSON of `makeSidecar(complete: false)`, encoding only what is not settled.
    func sidecarDocument() throws -> Data {
        do { try sidecar.settle(sidecarFacts) } catch { log.warn("the sidecar could not be written: \(error)") }
        return try sidecar.document(sidecarFacts)
    }

    /// The sidecar as of now: every scene of the movie (`MovieScenes`) and every cut.
    public func makeSidecar(complete: Bool) -> Sidecar {
        sidecar.sidecar(complete: complete, sidecarFacts)
    }

    /// What this recorder knows that its sidecar describes, as of now.
    private var sidecarFacts: SidecarAssembly.Facts {
        SidecarAssembly.Facts(description: description, session: session, log: log, moviePath: sink.moviePath,
                     videoFramesWritten: videoFramesAppended - discardedVideoFrames,
                     videoFramesDropped: sink.droppedVideoFrames,
                     lateVideoFrames: retimer.counters.lateVideoFrames + outputClock.lateFrames,
                     audioSamplesWritten: audioSamplesAppended, lateAudioSamples: retimer.counters.lateAudioSamples,
                     stopTime: stopTime, isos: isos,
                     voiceWaveFiles: Dictionary(voiceWaves.map { ($0.sink.voice, $0.sink.path) },
                                                uniquingKeysWith: { first, _ in first }))
    }
}
