import Foundation

/// The program as the live sinks get it: the active lens's routed frames turned into one picture per output slot
/// (the `OutputClock`, as the movie's grid does), stamped in live time — the session clock since the rig started,
/// never cut by a pause — and the sound moved to the same time.
///
/// A value type with no I/O and no clock, used on the serial context by `RigController+Live`. Unlike the recorder's
/// grid, it has one segment for the whole session: it starts at the first frame captured at or after `origin` and
/// never restarts, so a viewer sees a constant rate through pauses, retakes and stops.
public struct LiveFeed: Sendable {
    /// One slot for the sinks: the picture (its `pts` the slot's capture time) and its live time.
    public struct Slot: Sendable {
        public var frame: VideoFrame
        public var liveTime: MediaTime
    }

    /// The capture-clock time of live time zero: when the rig started.
    public let origin: MediaTime
    private var clock: OutputClock
    /// The live time of the last slot given out, so a slot is never given twice nor out of order.
    private var lastLiveTime: MediaTime?
    /// Where the sound's live time has reached: a chunk that starts before it (a device's overlap) is cut.
    private var soundEnd: MediaTime?

    /// A feed at `rate` whose live time starts at capture time `origin`.
    public init(rate: FrameRate, origin: MediaTime) {
        self.origin = origin
        clock = OutputClock(frameDuration: rate.frameDuration)
        clock.restart(at: origin)
    }

    /// The output's frame duration.
    public var frameDuration: MediaTime { clock.frameDuration }

    /// Offers a routed frame of the active lens; returns the slots it decides, in order (none, one, or several when
    /// the lens is slower than the output: the picture before it repeated).
    public mutating func offer(_ frame: VideoFrame) -> [Slot] {
        live(clock.offer(frame))
    }

    /// No frame captured before `time` can come any more (the lens stalled, or is slower than `RigController.holdAfter`):
    /// the slots before it repeat the last picture, so the sinks keep their rate.
    public mutating func hold(before time: MediaTime) -> [Slot] {
        live(clock.flush(before: time))
    }

    /// `chunk` in live time; `nil` for sound captured before the rig started. The part of a chunk before the end of
    /// the sound already given is cut, so the sinks' sound never overlaps.
    public mutating func sound(_ chunk: AudioChunk) -> AudioChunk? {
        guard chunk.pts >= origin, let start = try? chunk.pts.subtracting(origin) else { return nil }
        var shifted = chunk
        shifted.pts = start
        if let soundEnd, start < soundEnd {
            let overlap = (soundEnd - start).seconds * Double(chunk.sampleRate)
            let skip = Int(overlap.rounded(.up))
            guard skip < chunk.frameCount else { return nil }
            shifted = shifted.slice(skip..<chunk.frameCount)
        }
        soundEnd = shifted.end
        return shifted
    }

    /// The first `count` channels of `chunk` (the voice desk's stereo mix, without the voices' own tracks).
    public static func leadingChannels(_ count: Int, of chunk: AudioChunk) -> AudioChunk {
        guard count > 0, count < chunk.channels else { return chunk }
        var samples: [Int16] = []
        samples.reserveCapacity(chunk.frameCount * count)
        for frame in 0..<chunk.frameCount {
            let base = frame * chunk.channels
            samples.append(contentsOf: chunk.samples[base..<(base + count)])
        }
        return AudioChunk(pts: chunk.pts, sampleRate: chunk.sampleRate, channels: count, samples: samples)
    }

    private mutating func live(_ slots: [OutputClock.Slot]) -> [Slot] {
        var out: [Slot] = []
        for slot in slots {
            guard let time = try? slot.frame.pts.subtracting(origin), time >= .zero else { continue }
            if let lastLiveTime, time <= lastLiveTime { continue }
            lastLiveTime = time
            out.append(Slot(frame: slot.frame, liveTime: time))
        }
        return out
    }
}
