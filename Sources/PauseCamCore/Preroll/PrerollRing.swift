/// The recent samples a rig with `preroll:` keeps while no scene records (idle, paused, stopping), so that `record`
/// and `resume` can begin the scene before the press.
///
/// What is kept is what the recorder would have been handed at that moment, after the lens policy and the switcher
/// decided: each frame with the program's routed (cropped) picture when it was the program's, and whether its lens
/// records an ISO; the sound after the gain (a rig of voices: the desk's mixed chunks of 2 + N channels). Replayed in
/// arrival order through the recorder's ordinary entry points, the scene then gets the lens switches, zooms, ISOs
/// and voices as they were, not as they are at the press.
///
/// A value type with no clock and no I/O, used on the serial context. Bounded twice: by age (the samples ending
/// more than `length` + `slack` before the newest are let go) and by `byteBudget` (the oldest go first; each is
/// counted in `budgetDrops`, so a shorter preroll than asked is known and told). Frames are kept as the camera sent
/// them: a JPEG costs its compressed size, a raw picture its planes. A routed picture shares its frame's planes
/// (the crop is a rectangle), so a frame costs its bytes once.
public struct PrerollRing: Sendable {
    /// One kept sample, in the order it reached the controller.
    public enum Sample: Sendable {
        /// A frame as captured; `program` is the switcher's routed picture when the frame was the program's, and
        /// `iso` is true when its lens records an ISO (the ISO takes the frame as captured).
        case video(VideoFrame, program: VideoFrame?, iso: Bool)
        /// Sound as the recorder takes it.
        case audio(AudioChunk)

        /// Capture time of its first sample.
        public var pts: MediaTime {
            switch self {
            case .video(let frame, _, _): return frame.pts
            case .audio(let chunk): return chunk.pts
            }
        }

        /// Capture time just after it (a frame: its own instant; it is kept or not as a whole).
        public var end: MediaTime {
            switch self {
            case .video(let frame, _, _): return frame.pts
            case .audio(let chunk): return chunk.end
            }
        }

        /// The memory it holds: the planes of the frame (shared with its routed picture), or the samples.
        public var bytes: Int {
            switch self {
            case .video(let frame, _, _): return frame.planes.reduce(0) { $0 + $1.bytes.count }
            case .audio(let chunk): return chunk.samples.count * MemoryLayout<Int16>.size
            }
        }
    }

    /// How far before the press a scene may begin.
    public let length: MediaTime
    /// The most the kept samples may take, in bytes.
    public let byteBudget: Int
    /// Kept beyond `length`: the press is compared with capture times, and the newest sample arrives a delivery
    /// latency after its capture, so half a second more keeps the oldest needed sample whatever the latency.
    public static let slack = MediaTime.milliseconds(500)

    private var samples: [Sample] = []
    /// Index of the oldest kept sample in `samples`; the slots before it are let go in batches.
    private var head = 0
    /// The memory the kept samples hold now.
    public private(set) var bytes = 0
    /// The most they ever held: what a test compares with the budget, and what `status` could tell.
    public private(set) var largestBytes = 0
    /// Samples let go before their age for the budget: the preroll then reaches less far back than asked.
    public private(set) var budgetDrops = 0
    /// The newest capture time kept.
    private var newest: MediaTime?

    public init(length: MediaTime, byteBudget: Int) {
        self.length = length
        self.byteBudget = max(0, byteBudget)
    }

    /// The number of samples kept.
    public var count: Int { samples.count - head }

    /// Capture time of the oldest kept frame, if any.
    public var oldestVideo: MediaTime? {
        for sample in samples[head...] { if case .video(let frame, _, _) = sample { return frame.pts } }
        return nil
    }

    /// Keeps `sample`, then lets go of what is too old or beyond the budget (oldest first). A sample larger than the
    /// whole budget is not kept.
    public mutating func keep(_ sample: Sample) {
        let size = sample.bytes
        guard size <= byteBudget else {
            budgetDrops += 1
            return
        }
        samples.append(sample)
        bytes += size
        if newest.map({ sample.end > $0 }) ?? true { newest = sample.end }
        while bytes > byteBudget, head < samples.count {
            dropOldest()
            budgetDrops += 1
        }
        largestBytes = max(largestBytes, bytes)
        if let newest, let limit = try? newest.subtracting(length).subtracting(Self.slack) {
            while head < samples.count, samples[head].end < limit { dropOldest() }
        }
        compact()
    }

    /// The kept samples that reach `edge` or later, in the order they came, and an empty ring. A chunk of sound
    /// that straddles `edge` is cut there at the sample, so the scene's sound starts at its edge.
    public mutating func take(from edge: MediaTime) -> [Sample] {
        var taken: [Sample] = []
        for sample in samples[head...] {
            switch sample {
            case .video(let frame, _, _) where frame.pts >= edge:
                taken.append(sample)
            case .audio(let chunk) where chunk.end > edge:
                taken.append(.audio(Self.cut(chunk, from: edge)))
            default:
                continue
            }
        }
        removeAll()
        return taken
    }

    /// Lets everything go (a scene records: its samples go to the recorder).
    public mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
        head = 0
        bytes = 0
        newest = nil
    }

    /// `chunk` from the first sample frame captured at or after `edge`.
    static func cut(_ chunk: AudioChunk, from edge: MediaTime) -> AudioChunk {
        guard edge > chunk.pts else { return chunk }
        let skip = (try? (edge - chunk.pts).rescaled(to: chunk.sampleRate, rounding: .up).value) ?? Int64(chunk.frameCount)
        let first = Int(clamping: min(max(0, skip), Int64(chunk.frameCount)))
        return chunk.slice(first..<chunk.frameCount)
    }

    private mutating func dropOldest() {
        bytes -= samples[head].bytes
        head += 1
    }

    /// Frees the let-go slots once they are half the array, so keeping stays amortised O(1).
    private mutating func compact() {
        guard head > 64, head * 2 > samples.count else { return }
        samples.removeFirst(head)
        head = 0
    }
}
