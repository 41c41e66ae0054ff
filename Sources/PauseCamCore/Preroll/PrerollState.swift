/// A controller's preroll: the ring kept while no scene records, and the backlog a scene that has just begun is
/// still being handed.
///
/// On a clock that waits for work (the simulated one) a new scene takes its kept samples at once. On the real
/// clock they would arrive at the encoder as one burst that its queue refuses, so they become a `backlog` that the
/// controller hands over `PrerollPolicy.catchUpFramesPerTick` frames per frame of the movie; the samples arriving
/// meanwhile join the backlog's end, so the recorder still gets every sample in the order it came.
public struct PrerollState: Sendable {
    /// The samples kept while no scene records.
    public var ring: PrerollRing
    /// Samples a recording scene has not been handed yet, oldest first (from `head` on).
    private var backlog: [PrerollRing.Sample] = []
    private var head = 0
    /// The clip's own length (`record --preroll`, at most the ring's), for its record and resumes; `nil` takes
    /// the rig's.
    public var clipLength: MediaTime?

    public init(_ preroll: Rig.Preroll) {
        ring = PrerollRing(length: preroll.length, byteBudget: preroll.memoryBytes)
    }

    /// How far the clip's scenes reach back: its `record --preroll`, else the rig's `preroll:`.
    public var length: MediaTime { clipLength ?? ring.length }

    /// True while a scene is still being handed its kept samples.
    public var isCatchingUp: Bool { head < backlog.count }

    /// Starts handing `samples` over (what the ring kept from a scene's edge).
    public mutating func beginCatchUp(_ samples: [PrerollRing.Sample]) {
        backlog = samples
        head = 0
    }

    /// A sample that arrived while catching up: it waits behind the backlog.
    public mutating func queue(_ sample: PrerollRing.Sample) {
        backlog.append(sample)
    }

    /// The next samples to hand over: up to `frames` frames and the sound between them (everything when `nil`).
    public mutating func next(frames limit: Int?) -> [PrerollRing.Sample] {
        var taken: [PrerollRing.Sample] = []
        var frames = 0
        while head < backlog.count {
            if case .video = backlog[head] {
                if let limit, frames >= limit { break }
                frames += 1
            }
            taken.append(backlog[head])
            head += 1
        }
        if head >= backlog.count {
            backlog.removeAll(keepingCapacity: false)
            head = 0
        }
        return taken
    }
}
