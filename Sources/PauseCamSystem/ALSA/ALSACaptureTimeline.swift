import PauseCamCore

/// Stamps captured audio with its capture time on the session clock — a pure state machine, fed the measured
/// capture time of each read's first sample.
///
/// It corrects nothing: a sound card's clock that runs fast or slow against `CLOCK_MONOTONIC`, and samples lost to
/// an overrun or a stopped process, show up as the measured times drifting from the sample count, and the one drift
/// correction downstream (`AudioDriftCorrector`, in the encoder) stretches the audio smoothly or, after a real
/// stall, fills or cuts it once. (It used to insert silence past 20 ms and drop samples past 40 ms here, a second
/// layer of hard cuts that was heard as clicks.)
///
/// The one thing it keeps is order: a read measured before the previous one ended (timestamp jitter, a fast card)
/// is moved to half a sample before that end, so every sample stays after the one before it and the recorder never
/// discards overlapping audio as late.
public struct ALSACaptureTimeline: Sendable {
    /// Samples per second.
    public let sampleRate: Int32
    /// Where the previous read ended (its start plus its frames at the nominal rate), in nanoseconds; `nil` before
    /// the first.
    public private(set) var next: MediaTime?
    /// Reads moved later because they were measured before the previous one ended.
    public private(set) var reorderedReads = 0

    public init(sampleRate: Int32) {
        self.sampleRate = sampleRate
    }

    /// The capture time of a read of `frames` frames whose first sample was measured at `measured`.
    public mutating func place(measured: MediaTime, frames: Int) -> MediaTime {
        var start = (try? measured.rescaled(to: 1_000_000_000, rounding: .nearest)) ?? measured
        let halfSample = MediaTime.nanoseconds(500_000_000 / Int64(sampleRate))
        if let next, start < next - halfSample {
            start = next - halfSample
            reorderedReads += 1
        }
        next = start + .nanoseconds(Int64(frames) * 1_000_000_000 / Int64(sampleRate))
        return start
    }
}
