import PauseCamCore

/// Places captured audio on the session clock so it stays continuous and in sync with video — a pure state
/// machine, fed the measured capture time of each read's first sample.
///
/// Chunks are laid end to end (each starts where the last ended, exact to the sample). The measured time only
/// corrects that timeline when it strays further than a tolerance:
/// - measured later than expected (an overrun lost samples): the missing samples are counted and filled with
///   silence, so what follows stays in sync;
/// - measured earlier (the sound card's clock runs fast against `CLOCK_MONOTONIC`): the surplus samples at the
///   start of the read are dropped and counted.
///
/// Silence is handed on in runs of at most `maximumSilenceFrames` (`silenceRuns`): a process stopped with Ctrl-Z
/// for an hour comes back to an hour-long gap, which must not become one allocation of an hour of samples.
public struct ALSACaptureTimeline: Sendable {
    /// Samples per second.
    public let sampleRate: Int32
    /// A later measurement than this many frames is a gap to fill (20 ms: finer than any overrun, coarser than
    /// timestamp jitter).
    public let gapTolerance: Int
    /// An earlier measurement than this many frames is drift to correct (40 ms: lip-sync stays within a frame).
    public let leadTolerance: Int
    /// Where the next chunk starts; `nil` before the first.
    public private(set) var next: MediaTime?
    /// Frames of silence inserted for lost samples, so far.
    public private(set) var silenceFrames = 0
    /// Frames dropped because the card ran ahead, so far.
    public private(set) var droppedFrames = 0

    /// The longest run of silence handed on as one chunk: one second.
    public let maximumSilenceFrames: Int

    public init(sampleRate: Int32) {
        self.sampleRate = sampleRate
        gapTolerance = Int(sampleRate) / 50
        leadTolerance = Int(sampleRate) / 25
        maximumSilenceFrames = max(1, Int(sampleRate))
    }

    /// One run of silence: `frames` frames starting at `pts`.
    public struct SilenceRun: Sendable, Equatable {
        public var pts: MediaTime
        public var frames: Int
    }

    /// Where a read of `frames` frames whose first sample was measured at `measured` goes.
    public struct Placement: Sendable, Equatable {
        /// The chunk's start: the silence first, if any, then the samples.
        public var pts: MediaTime
        /// Frames of silence to put before the samples.
        public var silenceBefore: Int
        /// Frames to drop from the start of the read (`frames` drops the whole read).
        public var dropFromStart: Int

        /// Where the read's kept samples start: after the silence.
        public func samplesStart(sampleRate: Int32) -> MediaTime {
            pts + MediaTime(value: Int64(silenceBefore), timescale: sampleRate)
        }
    }

    /// The silence of `placement` cut into contiguous runs of at most `maximumSilenceFrames`, from its `pts` to
    /// where the samples start.
    public func silenceRuns(_ placement: Placement) -> [SilenceRun] {
        stride(from: 0, to: placement.silenceBefore, by: maximumSilenceFrames).map { start in
            SilenceRun(pts: placement.pts + MediaTime(value: Int64(start), timescale: sampleRate),
                       frames: min(maximumSilenceFrames, placement.silenceBefore - start))
        }
    }

    /// Places one read and advances the timeline.
    public mutating func place(measured: MediaTime, frames: Int) -> Placement {
        guard let expected = next else {
            let start = (try? measured.rescaled(to: sampleRate, rounding: .nearest)) ?? measured
            next = start + MediaTime(value: Int64(frames), timescale: sampleRate)
            return Placement(pts: start, silenceBefore: 0, dropFromStart: 0)
        }
        let offset = (try? (measured - expected).rescaled(to: sampleRate, rounding: .nearest).value) ?? 0
        var placement = Placement(pts: expected, silenceBefore: 0, dropFromStart: 0)
        if offset > Int64(gapTolerance) {
            placement.silenceBefore = Int(offset)
            silenceFrames += Int(offset)
        } else if offset < -Int64(leadTolerance) {
            placement.dropFromStart = min(frames, Int(-offset))
            droppedFrames += placement.dropFromStart
        }
        let kept = placement.silenceBefore + frames - placement.dropFromStart
        next = expected + MediaTime(value: Int64(kept), timescale: sampleRate)
        return placement
    }
}
