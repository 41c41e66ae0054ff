/// Keeps the audio track on the session clock with one correction, smooth: where audio should be (its file time)
/// against where the encoder's track has got to (samples placed) is turned into a gentle resampling ratio — the
/// `aresample=async` idea, done with libswresample's compensation — and only a real stall (more than
/// `stallThreshold` off, a microphone unplugged or a process stopped) into silence or a cut.
///
/// A microphone's crystal runs some parts per million off the camera clock; at 1000 ppm that is 36 ms an hour.
/// Hard cuts at a tolerance (the old 10 ms here and 20/40 ms in the ALSA timeline) are heard as clicks and let the
/// offset saw-tooth up to the tolerance. A proportional correction — each chunk asks for the whole offset to be
/// made up over the next second, at most `maximumRatio` — holds a steady drift of r ppm at an offset of r × 1 s
/// (1 ms at 1000 ppm) without a sound. Pure arithmetic on sample counts, in the output's rate.
public struct AudioDriftCorrector: Sendable, Equatable {
    /// What the encoder does before placing the next chunk.
    public enum Correction: Sendable, Equatable {
        /// Nothing: the very first chunk sits where it belongs (silence before it, if it starts after 0).
        case placeFirst(silence: Int)
        /// Resample so that `delta` more (or fewer, negative) output samples come over the next `distance`
        /// output samples (`swr_set_compensation`'s arguments).
        case compensate(delta: Int, distance: Int)
        /// A stall: the chunk starts this many samples after the track's end; fill them with silence.
        case insertSilence(Int)
        /// The chunk starts this many samples before the track's end (a clock stepped back, or a burst after a
        /// stall): drop that many samples from its head.
        case drop(Int)
    }

    /// Output samples per second.
    public let sampleRate: Int
    /// An offset beyond this is a stall, corrected at once (200 ms: more than any drift between two chunks).
    public let stallThreshold: Int
    /// The largest resampling correction: 0.2 % (3.5 cents of pitch, inaudible), twice the worst crystal drift a
    /// test uses.
    public static let maximumRatio = 0.002
    /// Samples over which each correction is spread: one second.
    public var distance: Int { sampleRate }
    private var started = false
    /// Stall corrections so far: silence inserted and samples dropped, in output samples.
    public private(set) var silenceInserted = 0
    public private(set) var samplesDropped = 0
    /// How many stalls were corrected (each a sidecar event).
    public private(set) var stalls = 0

    public init(sampleRate: Int32, stallThreshold: MediaTime = .milliseconds(200)) {
        self.sampleRate = Int(sampleRate)
        self.stallThreshold = Int((try? stallThreshold.rescaled(to: sampleRate, rounding: .nearest).value) ?? 0)
    }

    /// The correction for a chunk that belongs at output sample `expected`, when the track has placed (encoded,
    /// queued or still inside the resampler) `position` output samples.
    public mutating func correction(expected: Int64, position: Int64) -> Correction {
        let offset = expected - position
        guard started else {
            started = true
            return .placeFirst(silence: Int(max(0, offset)))
        }
        if offset > Int64(stallThreshold) {
            stalls += 1
            silenceInserted += Int(offset)
            return .insertSilence(Int(offset))
        }
        if offset < -Int64(stallThreshold) {
            stalls += 1
            samplesDropped += Int(-offset)
            return .drop(Int(-offset))
        }
        let limit = Int64((Double(distance) * Self.maximumRatio).rounded(.down))
        return .compensate(delta: Int(min(limit, max(-limit, offset))), distance: distance)
    }
}
