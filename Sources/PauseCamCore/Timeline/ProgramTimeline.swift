/// The program's file-time mapping as its `Recorder` decides it, slot by slot: which stretches of capture time the
/// movie keeps, and at which file time each lies. The ISO recorders (`IsoRecorder`) place their own slots on it,
/// so every ISO movie has the program's start, pauses, retakes and end, to the instant.
///
/// A value type with no I/O and no clock, kept by the `Recorder` on the serial context. It follows the `Retimer`'s
/// decisions rather than repeating them: a segment begins at the program's first kept slot after a start or
/// resume (file time = capture time − the segment's offset, the retimer's own), and reaches one program frame past
/// the last slot kept so far. What lies beyond that is undecided until the program has decided a slot at or after
/// it (`horizon`), or the clip is finished.
public struct ProgramTimeline: Sendable, Equatable {
    /// One stretch of capture time the program keeps.
    public struct Segment: Sendable, Equatable {
        /// Capture time of the segment's first slot: file time `start − offset`.
        public var start: MediaTime
        /// Subtracted from capture time to get file time (the retimer's offset for this segment).
        public var offset: MediaTime
        /// Capture time just after the last slot kept so far (its time plus one program frame).
        public var keptThrough: MediaTime
    }

    /// What becomes of an ISO slot at a capture time.
    public enum Decision: Sendable, Equatable {
        /// The program keeps this instant: the slot goes into the ISO at `fileTime`, in segment `segment`.
        case keep(fileTime: MediaTime, segment: Int)
        /// The program does not keep this instant (before the start, in a pause, after the stop).
        case drop
        /// The program has not decided this instant yet.
        case undecided
    }

    /// The segments kept so far, in time order.
    public private(set) var segments: [Segment] = []
    /// The latest capture time of a slot the program decided, kept or not: no instant up to it changes any more.
    public private(set) var horizon: MediaTime?
    /// File times at which a scene began without a new segment (a `chapter`): ISOs start a keyframe there too, as
    /// the program does.
    public private(set) var sceneStarts: [MediaTime] = []
    /// True once the clip is closed: every instant is decided.
    public private(set) var finished = false

    /// The program's frame duration: a kept slot covers this much capture time.
    public let frameDuration: MediaTime

    /// An empty timeline for a program of `frameDuration`.
    public init(frameDuration: MediaTime) {
        self.frameDuration = frameDuration
    }

    /// The program kept its slot at capture time `pts`, at `fileTime`; `startsSegment` opens a new segment there.
    public mutating func kept(slotAt pts: MediaTime, fileTime: MediaTime, startsSegment: Bool) {
        decided(pts)
        let end = pts + frameDuration
        if startsSegment || segments.isEmpty {
            segments.append(Segment(start: pts, offset: pts - fileTime, keptThrough: end))
        } else {
            segments[segments.count - 1].keptThrough = end
        }
    }

    /// The program decided its slot at capture time `pts` and did not keep it.
    public mutating func dropped(slotAt pts: MediaTime) {
        decided(pts)
    }

    /// A scene began at `fileTime` inside a segment (`chapter`).
    public mutating func sceneBegan(at fileTime: MediaTime) {
        sceneStarts.append(fileTime)
    }

    /// The clip is closed: nothing more is kept.
    public mutating func finish() {
        finished = true
    }

    private mutating func decided(_ pts: MediaTime) {
        if horizon.map({ pts > $0 }) ?? true { horizon = pts }
    }

    /// Whether the program keeps capture time `time`, and at which file time.
    public func decision(at time: MediaTime) -> Decision {
        let passed = finished || horizon.map { $0 >= time } ?? false
        guard let index = segments.lastIndex(where: { $0.start <= time }) else {
            // Before the first segment: once the program decided a slot at or after `time` without keeping it,
            // its first kept slot is later still.
            return passed || !segments.isEmpty ? .drop : .undecided
        }
        let segment = segments[index]
        if time < segment.keptThrough { return .keep(fileTime: time - segment.offset, segment: index) }
        // Past the segment's kept part: dropped once a later segment began, or the program decided beyond it.
        return passed || index < segments.count - 1 ? .drop : .undecided
    }

    /// Capture time just after the last instant the program keeps: the end of its last segment.
    public var end: MediaTime? { segments.last?.keptThrough }
}
