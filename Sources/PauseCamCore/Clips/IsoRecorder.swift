/// One lens recorded on its own beside the program (`output.iso`): every frame of the lens, at the lens's own rate
/// and size, on exactly the program's timeline — the same start, pauses, retakes and end — into a movie sink of its
/// own (`NAME.iso/ROLE.mov`).
///
/// A second consumer of the program's decisions, not a second recorder: the program's `Recorder` owns it, feeds it
/// the lens's frames, the audio it sends to the program (unless the sink takes the program's encoded sound itself,
/// as the FFmpeg writer does), and the `ProgramTimeline` of what the program keeps. The
/// lens's frames go through an `OutputClock` of the lens's own rate whose grid restarts at each segment's first
/// program slot, so at equal rates an ISO slot falls on every program slot and shows the frame the program would
/// show of that lens. A slot reaches the sink once the timeline has decided its instant (kept, at the program's
/// file time, or not); frames wait until the program has decided the instants before them, so a segment's start
/// is known before the frames after it are placed. A lens that delivers nothing holds its last picture, or shows
/// the "no signal" slate (`NoSignalSlate`) when it has none yet, so the ISO has no hole.
///
/// Used only on the serial context, like the `Recorder`. A sink error stops this ISO (it is reported in the
/// sidecar) and never the program.
public final class IsoRecorder {
    /// What the ISO movie is: the lens, and the size and rate it is encoded at (the lens's own).
    public struct Lens: Sendable, Equatable {
        /// The lens's role name (`wide`, `tele`): the movie is `ROLE.mov` in the clip's `.iso` folder.
        public var role: String
        public var width: Int
        public var height: Int
        public var rate: FrameRate
        /// The lens's frames arrive as JPEGs (an MJPEG camera or file), shown as captured: the ISO keeps them as
        /// they came (MJPEG, `MovieSettings.VideoCoding.jpegPassThrough`) instead of encoding them with x264.
        public var passesJPEGThrough: Bool
        public init(role: String, width: Int, height: Int, rate: FrameRate, passesJPEGThrough: Bool = false) {
            self.role = role
            self.width = width
            self.height = height
            self.rate = rate
            self.passesJPEGThrough = passesJPEGThrough
        }

        /// The lenses of `rig`'s `output.iso` as a clip records them: each at the size and rate its camera delivers
        /// (`formats`, by lens name; turned as the lens's `rotate:` turns it) or, without a camera now, at what the
        /// rig asks of the lens; passed through when the camera sends JPEGs (or, without a camera, the lens names
        /// `format: mjpeg`) and the lens is not turned or mirrored (a JPEG can only be turned once decoded). The one
        /// rule for the recorder and for the encoder-load judgement made before recording.
        public static func planned(for rig: Rig, formats: [String: CameraFormat]) -> [Lens] {
            rig.output.iso.compactMap { role in
                guard let lens = rig.lens(named: role) else { return nil }
                let format = formats[role]
                let size = lens.orientation.orientedSize(width: format?.width ?? lens.width ?? rig.output.width,
                                                         height: format?.height ?? lens.height ?? rig.output.height)
                let sendsJPEG = format.map { $0.pixelFormat == .jpeg } ?? (lens.format == .mjpeg)
                return Lens(role: role, width: size.width, height: size.height,
                            rate: format?.rate ?? lens.rate ?? rig.output.rate,
                            passesJPEGThrough: sendsJPEG && lens.orientation == .upright)
            }
        }
    }

    public let lens: Lens
    let sink: any MovieSink
    private var clock: OutputClock
    /// The lens's frames not yet offered to the clock: the program has not decided the instants before them.
    private var waiting: [VideoFrame] = []
    /// Slots the clock decided that the timeline has not decided yet, in time order.
    private var pending: [OutputClock.Slot] = []
    /// How many of the timeline's segments the clock was restarted for.
    private var segmentsStarted = 0
    /// The timeline segment of the last slot appended: a slot in another one starts a keyframe.
    private var lastSegment: Int?
    /// The first of the timeline's scene starts not yet passed.
    private var nextSceneStart = 0
    /// The clock has a picture to show (a frame of the lens, or the slate).
    private var hasPicture = false
    /// Appended frames as runs of consecutive grid slots: (first file time, count). Enough to count the frames a
    /// `retake` discards without keeping every frame's time.
    private var runs: [(start: MediaTime, count: Int)] = []
    /// Frames handed to the sink.
    public private(set) var framesAppended = 0
    /// The first sink error: this ISO stops there.
    public private(set) var failure: Error?

    /// An ISO of `lens` written to `sink`.
    public init(lens: Lens, sink: any MovieSink) {
        self.lens = lens
        self.sink = sink
        clock = OutputClock(frameDuration: lens.rate.frameDuration)
    }

    /// Where the finished ISO movie will be (`NAME.iso/ROLE.mov`).
    public var moviePath: String { sink.moviePath }

    /// A frame of this ISO's lens, as captured (before the switcher's crop).
    func offer(_ frame: VideoFrame, timeline: ProgramTimeline) {
        guard failure == nil else { return }
        waiting.append(frame)
        advance(timeline)
    }

    /// The program decided more of its timeline: frames before its horizon go to the clock, and the slots the
    /// timeline now decides go to the sink.
    func advance(_ timeline: ProgramTimeline) {
        guard failure == nil else { return }
        startSegments(timeline)
        let ready = timeline.finished ? waiting.count
            : waiting.prefix { frame in timeline.horizon.map { frame.pts <= $0 } ?? false }.count
        for frame in waiting.prefix(ready) {
            hasPicture = true
            pending += clock.offer(frame)
        }
        waiting.removeFirst(ready)
        release(timeline)
    }

    /// Decides the clock's slots before `time` with the last picture (the lens delivers nothing: unplugged, cold,
    /// or late beyond what the program waits for); with no picture yet, the slate fills them.
    func hold(before time: MediaTime, timeline: ProgramTimeline) {
        advance(timeline)
        guard failure == nil, let horizon = timeline.finished ? time : timeline.horizon else { return }
        if !hasPicture, let start = timeline.segments.last?.start {
            hasPicture = true
            pending += clock.offer(NoSignalSlate.frame(width: lens.width, height: lens.height, lens: lens.role,
                                                       lostAt: .zero, pts: start))
        }
        pending += clock.flush(before: MediaTime.min(time, horizon))
        release(timeline)
    }

    /// Closes the ISO with the program's finished timeline: every frame offered, the grid decided to the program's
    /// end with the last picture.
    func close(_ timeline: ProgramTimeline) {
        advance(timeline)
        if let end = timeline.end { hold(before: end, timeline: timeline) }
        pending.removeAll()
    }

    /// Audio the program sent to its sink, at the same file times; nothing for a sink that takes the program's
    /// encoded sound itself (`MovieSink.takesProgramSound`).
    func appendAudio(_ chunk: AudioChunk) {
        guard failure == nil, !sink.takesProgramSound else { return }
        do { try sink.appendAudio(chunk) } catch { failure = error }
    }

    /// The grid restarts at every new segment's first program slot.
    private func startSegments(_ timeline: ProgramTimeline) {
        while segmentsStarted < timeline.segments.count {
            let start = timeline.segments[segmentsStarted].start
            clock.phaseAnchor = start
            clock.restart(at: start)
            segmentsStarted += 1
        }
    }

    /// The pending slots the timeline has decided, in order, to the sink or away.
    private func release(_ timeline: ProgramTimeline) {
        var index = 0
        while index < pending.count, failure == nil {
            let slot = pending[index]
            let decision = timeline.decision(at: slot.frame.pts)
            if decision == .undecided { break }
            index += 1
            guard case .keep(let fileTime, let segment) = decision else { continue }
            append(slot, at: fileTime, segment: segment, timeline: timeline)
        }
        pending.removeFirst(index)
    }

    private func append(_ slot: OutputClock.Slot, at fileTime: MediaTime, segment: Int, timeline: ProgramTimeline) {
        var keyframe = segment != lastSegment
        let scenes = timeline.sceneStarts
        while nextSceneStart < scenes.count, scenes[nextSceneStart] <= fileTime {
            keyframe = true
            nextSceneStart += 1
        }
        do {
            try sink.appendVideo(slot.frame, at: fileTime, keyframe: keyframe)
        } catch {
            failure = error
            return
        }
        lastSegment = segment
        framesAppended += 1
        if let last = runs.last, last.start + frames(last.count) == fileTime {
            runs[runs.count - 1].count += 1
        } else {
            runs.append((fileTime, 1))
        }
    }

    /// `count` frames of the lens's rate.
    private func frames(_ count: Int) -> MediaTime {
        (try? lens.rate.frameDuration.multiplied(by: Int64(count))) ?? .zero
    }

    /// The appended frames whose file time lies in one of `spans` (the takes `retake` discarded).
    func framesIn(_ spans: [Range<MediaTime>]) -> Int {
        guard !spans.isEmpty else { return 0 }
        var count = 0
        for run in runs {
            for index in 0..<run.count {
                let time = run.start + frames(index)
                if spans.contains(where: { $0.contains(time) }) { count += 1 }
            }
        }
        return count
    }
}
