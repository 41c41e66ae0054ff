// The time model, in five lines (see docs/ARCHITECTURE.md, "Time"):
// 1. Capture time: every sample carries the time it was captured, on the one session clock (CLOCK_MONOTONIC).
// 2. Pause offset: a cumulative offset; each resume adds the gap (resume frame PTS − last appended PTS − one frame).
// 3. File time = capture time − offset, the same offset for video and audio, so the two never drift apart.
// 4. Monotonic guard: on each track file time strictly increases; a late or duplicate sample is dropped and counted.
// 5. The movie starts at the first video frame (file time 0); earlier audio is dropped, straddling audio is cut.
//
// Commands take effect at the time they were given, compared with sample timestamps, never at whenever a sample
// happens to arrive: a video frame is kept when the last command at or before its PTS was `start`/`resume`. Video
// edges therefore fall on real frames (the frame grid); audio is cut at the exact sample. Because a segment's
// edges are only known once video has been seen past them, audio waits in a small queue until video has passed it
// (the "video watermark"), and is then cut against the segments (like FFmpeg's sync queue).
//
// A `retake` reaches the retimer as a pause and a resume at one instant: file time (the `.partial`'s) keeps going
// forward; the `Session` subtracts the discarded spans to get movie time, and the remux leaves them out.
//
// Exactness: all of this is exact `MediaTime` arithmetic whenever the timescales involved have a common multiple
// that fits an `Int32` (capture times in µs, 1/90000 or 1/48000 ticks with 1/30 or 1001/30000 frames). A
// nanosecond clock with 1/30 s frames needs 3·10⁹ and does not fit: there a seam is one frame duration rounded
// to the nearest nanosecond. Audio and video still share the very same offset, so nothing drifts.

/// The timestamp surgery that turns capture times with pauses into one continuous movie timeline.
///
/// A value type with no I/O and no clock: the `Recorder` feeds it commands (with their times) and samples, and
/// performs what it returns. It is used from one serial context only.
public struct Retimer: Sendable {
    /// Why a video frame or audio samples were not appended.
    public enum DropReason: Sendable, Equatable {
        /// Not recording at this sample's time: before `start`, while paused, or after `stop`.
        case notRecording
        /// A timestamp at or before the last one seen on that track (late or duplicate): never appended out of order.
        case late
        /// The timestamp arithmetic would overflow `Int64`; the sample cannot be placed.
        case overflow
    }

    /// What to do with one video frame.
    public enum VideoDecision: Sendable, Equatable {
        /// Append it at `fileTime`. `startsSegment` is true for the first frame after `start` or a `resume`:
        /// the writer forces a keyframe there and the scene's start is this frame's file time.
        case append(fileTime: MediaTime, startsSegment: Bool)
        /// Do not append it.
        case drop(DropReason)
    }

    /// Counters of what was dropped, for the sidecar and the stop summary.
    public struct Counters: Sendable, Equatable {
        /// Video frames dropped because their timestamp was not after the last one seen.
        public var lateVideoFrames = 0
        /// Audio sample frames dropped because they overlapped audio already appended.
        public var lateAudioSamples = 0
        /// Samples whose time arithmetic overflowed.
        public var overflowedSamples = 0
        public init() {}
    }

    /// A recorded stretch of capture time.
    struct Segment: Sendable {
        /// Capture time of the segment's first video frame.
        var start: MediaTime
        /// Capture time just after its last video frame (last PTS + one frame); `nil` while still open.
        var end: MediaTime?
        /// Subtracted from capture time to get file time.
        var offset: MediaTime
    }

    private enum Edge: Sendable {
        case start(MediaTime)
        case pause(MediaTime)
        case stop(MediaTime)

        var time: MediaTime {
            switch self {
            case .start(let t), .pause(let t), .stop(let t): return t
            }
        }

        var isStop: Bool { if case .stop = self { return true } else { return false } }
    }

    private enum Phase: Sendable {
        /// Not started, or paused: frames are dropped.
        case waiting
        /// A start or resume was given: the next frame at or after it opens a segment.
        case armed
        /// A segment is open: frames are appended.
        case open
        /// Stopped: nothing more is appended.
        case stopped
    }

    /// Nominal duration of one video frame; seams are exactly this long.
    public let frameDuration: MediaTime
    /// What was dropped so far.
    public private(set) var counters = Counters()

    private var edges: [Edge] = []
    private var phase: Phase = .waiting
    private var segments: [Segment] = []
    private var offset: MediaTime = .zero
    private var lastVideoCapture: MediaTime?
    /// File time of the last appended video frame.
    public private(set) var lastVideoFileTime: MediaTime?
    /// The latest video PTS seen, appended or not: audio up to here can be decided.
    private var videoWatermark: MediaTime?
    private var pendingAudio: [AudioChunk] = []
    /// File time just after the last appended audio sample.
    public private(set) var audioFileEnd: MediaTime?
    private var finished = false

    /// A retimer for video of the given nominal frame duration (1/30 s, 1001/30000 s…).
    public init(frameDuration: MediaTime) {
        precondition(frameDuration > .zero, "frame duration must be positive")
        self.frameDuration = frameDuration
    }

    // MARK: Commands

    /// Recording starts (or resumes) at `time`: the first video frame at or after it opens a segment.
    public mutating func start(at time: MediaTime) { enqueue(.start(time)) }
    /// Recording pauses at `time`: frames at or after it are dropped; the segment ends after the last kept frame.
    public mutating func pause(at time: MediaTime) { enqueue(.pause(time)) }
    /// Recording resumes at `time`; the same as `start(at:)`, named for the reader.
    public mutating func resume(at time: MediaTime) { enqueue(.start(time)) }
    /// Recording stops at `time`: like a pause that is never resumed.
    public mutating func stop(at time: MediaTime) { enqueue(.stop(time)) }

    private mutating func enqueue(_ edge: Edge) {
        // Command times come from one monotonic clock, so they are in order; a clock that stepped back is
        // clamped rather than allowed to reorder the edges.
        if let last = edges.last, edge.time < last.time {
            switch edge {
            case .start: edges.append(.start(last.time))
            case .pause: edges.append(.pause(last.time))
            case .stop: edges.append(.stop(last.time))
            }
        } else {
            edges.append(edge)
        }
    }

    // MARK: Video

    /// Decides one video frame by its capture time `pts`, and releases any audio that this frame makes decidable
    /// (collect it with `takeAudio()`).
    public mutating func retimeVideo(pts: MediaTime) -> VideoDecision {
        if finished { return .drop(.notRecording) }
        if let watermark = videoWatermark, pts <= watermark {
            counters.lateVideoFrames += 1
            return .drop(.late)
        }
        videoWatermark = pts
        applyEdges(through: pts)
        switch phase {
        case .waiting, .stopped:
            releaseAudio()
            return .drop(.notRecording)
        case .armed:
            let fileTime: MediaTime
            let newOffset: MediaTime
            do {
                let seam = try lastVideoFileTime.map { try $0.adding(frameDuration) } ?? .zero
                // When video stalled (every camera unplugged) audio went on past the last frame; the next segment
                // starts after that audio, never under it, so the two stay in sync.
                // (Less than half a frame over the seam is the rounding of a cut, not a stall.)
                let halfFrame = MediaTime(value: frameDuration.value, timescale: frameDuration.timescale * 2)
                if let audioEnd = audioFileEnd, audioEnd > (try seam.adding(halfFrame)) {
                    fileTime = audioEnd
                } else {
                    fileTime = seam
                }
                newOffset = try pts.subtracting(fileTime)
                // The frame's end must be representable too: it is the timer and the segment's end.
                _ = try fileTime.adding(frameDuration)
                _ = try pts.adding(frameDuration)
            } catch {
                counters.overflowedSamples += 1
                return .drop(.overflow)
            }
            offset = newOffset
            segments.append(Segment(start: pts, end: nil, offset: offset))
            phase = .open
            lastVideoCapture = pts
            lastVideoFileTime = fileTime
            releaseAudio()
            return .append(fileTime: fileTime, startsSegment: true)
        case .open:
            guard let fileTime = try? pts.subtracting(offset),
                  (try? fileTime.adding(frameDuration)) != nil, (try? pts.adding(frameDuration)) != nil,
                  lastVideoFileTime.map({ fileTime > $0 }) ?? true else {
                counters.overflowedSamples += 1
                return .drop(.overflow)
            }
            lastVideoCapture = pts
            lastVideoFileTime = fileTime
            releaseAudio()
            return .append(fileTime: fileTime, startsSegment: false)
        }
    }

    private mutating func applyEdges(through time: MediaTime) {
        while let edge = edges.first, edge.time <= time {
            edges.removeFirst()
            apply(edge)
        }
    }

    private mutating func apply(_ edge: Edge) {
        switch (edge, phase) {
        case (_, .stopped):
            break
        case (.start, .waiting):
            phase = .armed
        case (.start, _):
            break
        case (.pause, .open), (.stop, .open):
            closeSegment()
            phase = edge.isStop ? .stopped : .waiting
        case (.pause, _):
            phase = .waiting
        case (.stop, _):
            phase = .stopped
        }
    }

    private mutating func closeSegment() {
        guard let last = lastVideoCapture, !segments.isEmpty, segments[segments.count - 1].end == nil else { return }
        // `retimeVideo` only keeps frames whose end is representable, so this cannot fail.
        segments[segments.count - 1].end = (try? last.adding(frameDuration)) ?? last
    }

    // MARK: Audio

    /// Queues an audio chunk; it is cut and retimed once video has passed it. Collect the result with `takeAudio()`.
    ///
    /// Samples captured at or before audio already decided (a repeated or overlapping chunk) are dropped and counted
    /// in `lateAudioSamples`; a chunk whose end does not fit an `Int64` is dropped and counted in `overflowedSamples`.
    public mutating func retimeAudio(_ chunk: AudioChunk) {
        guard !finished, chunk.frameCount > 0 else { return }
        guard let chunkEnd = try? chunk.pts.adding(MediaTime(value: Int64(chunk.frameCount),
                                                             timescale: chunk.sampleRate)) else {
            counters.overflowedSamples += chunk.frameCount
            return
        }
        var chunk = chunk
        // The capture-time guard: the queue and the decided audio stay in strictly increasing sample order.
        if let last = lastQueuedAudioSample {
            let late = samples(of: chunk, atOrBefore: last)
            if late > 0 {
                counters.lateAudioSamples += late
                if late == chunk.frameCount { return }
                chunk = chunk.slice(late..<chunk.frameCount)
            }
        }
        lastQueuedAudioSample = (try? chunkEnd.subtracting(MediaTime(value: 1, timescale: chunk.sampleRate))) ?? chunkEnd
        pendingAudio.append(chunk)
        releaseAudio()
        // Memory stays bounded when video stalls (a camera unplugged mid-clip): audio older than
        // `maximumAudioLead` behind the newest sample is decided without waiting for video. The timeline is
        // declared decided up to there: pending commands before it take effect, and a video frame that still
        // arrives from before it is dropped as late (it would have to be placed before audio already written).
        if let oldest = pendingAudio.first?.pts, let limit = Self.decidedWithoutVideo(byAudioEndingAt: chunkEnd),
           oldest < limit {
            if videoWatermark.map({ $0 < limit }) ?? true { videoWatermark = limit }
            applyEdges(through: limit)
            release(upTo: limit)
        }
    }

    /// How much audio may wait for video before it is decided without it.
    public static let maximumAudioLead = MediaTime.seconds(2)

    /// The capture time through which audio ending at `end` decides the timeline without video (once audio waits
    /// from before it): `maximumAudioLead` before `end`. A video frame at or before it that comes later is late.
    /// `nil` only when the difference does not fit.
    public static func decidedWithoutVideo(byAudioEndingAt end: MediaTime) -> MediaTime? {
        try? end.subtracting(maximumAudioLead)
    }

    private var releasedAudio: [AudioChunk] = []
    /// Capture time of the last audio sample queued (or decided): later chunks must come after it.
    private var lastQueuedAudioSample: MediaTime?

    /// The audio released since the last call, in file time, in order, cut at every edge. Empty pieces never appear.
    ///
    /// Every piece keeps its segment's offset exactly (file time = capture time − offset, as video), so where two
    /// segments meet the first sample of the new one may fall less than one sample period after the last sample
    /// of the old one, or leave a gap of less than one sample: the two capture-time sample grids do not line up.
    /// Sample instants still strictly increase; the writer places samples by count and absorbs the fraction.
    public mutating func takeAudio() -> [AudioChunk] {
        defer { releasedAudio.removeAll(keepingCapacity: true) }
        return releasedAudio
    }

    /// The capture time up to which every sample's fate is known.
    private var audioHorizon: MediaTime? {
        guard let watermark = videoWatermark else { return nil }
        // In an open segment the end is at least the last frame plus one frame duration.
        if phase == .open, let last = lastVideoCapture, let end = try? last.adding(frameDuration) {
            return MediaTime.max(end, watermark)
        }
        return watermark
    }

    private mutating func releaseAudio() {
        guard let horizon = audioHorizon else { return }
        release(upTo: horizon)
    }

    /// Releases pending audio before `horizon` (all of it when `horizon` is nil), cut against the segments.
    private mutating func release(upTo horizon: MediaTime?) {
        var index = 0
        while index < pendingAudio.count {
            let chunk = pendingAudio[index]
            let count = chunk.frameCount
            var decided = count
            if let horizon {
                decided = samples(of: chunk, before: horizon)
                if decided <= 0 { break }
            }
            cut(chunk, samples: 0..<decided)
            if decided < count {
                pendingAudio[index] = chunk.slice(decided..<count)
                break
            }
            index += 1
        }
        pendingAudio.removeFirst(index)
        // Closed segments that end before every sample still to come are not needed any more.
        if let undecided = pendingAudio.first?.pts ?? lastQueuedAudioSample {
            while let end = segments.first?.end, end <= undecided { segments.removeFirst() }
        }
    }

    /// How many leading sample frames of `chunk` are captured before `time` (0 … frameCount).
    private func samples(of chunk: AudioChunk, before time: MediaTime) -> Int {
        if time <= chunk.pts { return 0 }
        guard let span = try? time.subtracting(chunk.pts),
              let count = try? span.rescaled(to: chunk.sampleRate, rounding: .up) else { return chunk.frameCount }
        return Int(Swift.min(count.value, Int64(chunk.frameCount)))
    }

    /// How many leading sample frames of `chunk` are captured at or before `time` (0 … frameCount).
    private func samples(of chunk: AudioChunk, atOrBefore time: MediaTime) -> Int {
        if time < chunk.pts { return 0 }
        guard let span = try? time.subtracting(chunk.pts),
              let count = try? span.rescaled(to: chunk.sampleRate, rounding: .down) else { return chunk.frameCount }
        return Int(Swift.min(count.value, Int64(chunk.frameCount - 1))) + 1
    }

    /// Cuts `range` of `chunk` against the segments and appends the kept pieces, in file time, to `releasedAudio`.
    ///
    /// A segment's audio starts at the later of its start and the previous segment's end: when a resume frame came
    /// less than one frame after the last kept one, the two segments overlap in capture time, and the overlap
    /// belongs to the old segment only — otherwise the same sound would play twice across the seam (the new
    /// segment then starts with less than a frame of silence instead).
    private mutating func cut(_ chunk: AudioChunk, samples range: Range<Int>) {
        var previousEnd: MediaTime?
        for segment in segments {
            defer { previousEnd = segment.end }
            let audioStart = previousEnd.map { MediaTime.max($0, segment.start) } ?? segment.start
            let from = Swift.max(range.lowerBound, samples(of: chunk, before: audioStart))
            let to = Swift.min(range.upperBound, segment.end.map { samples(of: chunk, before: $0) } ?? range.upperBound)
            guard from < to else { continue }
            var piece = chunk.slice(from..<to)
            guard let fileStart = try? piece.pts.subtracting(segment.offset),
                  (try? fileStart.adding(MediaTime(value: Int64(to - from), timescale: chunk.sampleRate))) != nil else {
                counters.overflowedSamples += to - from
                continue
            }
            piece.pts = fileStart
            appendAudio(piece)
        }
    }

    /// The file-time monotonic guard: samples at or before the last appended sample are trimmed and counted.
    /// (Within a segment the capture-time guard already ensures this; it matters where segments overlap in
    /// capture time, when a resume frame came less than one frame duration after the last kept one.)
    private mutating func appendAudio(_ piece: AudioChunk) {
        var piece = piece
        if let end = audioFileEnd {
            let last = end - MediaTime(value: 1, timescale: piece.sampleRate)
            let late = samples(of: piece, atOrBefore: last)
            if late > 0 {
                counters.lateAudioSamples += late
                if late == piece.frameCount { return }
                piece = piece.slice(late..<piece.frameCount)
            }
        }
        audioFileEnd = piece.end
        releasedAudio.append(piece)
    }

    // MARK: Finishing

    /// Ends the timeline: applies every pending command, closes the open segment after its last frame, releases
    /// the audio that falls inside a segment and drops the rest. Nothing is accepted afterwards.
    public mutating func finish() {
        guard !finished else { return }
        while !edges.isEmpty { apply(edges.removeFirst()) }
        if phase == .open { closeSegment() }
        phase = .stopped
        let end = segments.last?.end
        release(upTo: end)
        pendingAudio.removeAll()
        finished = true
    }

    /// The movie's video duration so far: the end of the last appended frame in file time (zero before any frame).
    public var videoDuration: MediaTime {
        guard let last = lastVideoFileTime else { return .zero }
        // `retimeVideo` only appends frames whose end is representable.
        return last + frameDuration
    }
}
