import Foundation

/// Where a voice file's samples go (`VoiceWaveSink`): sample n of the file is at file time n / rate, so a voice
/// file lines up with the movie, and with every other voice's, sample for sample.
///
/// A value the writer keeps: `place` says, for samples handed over at a file time, how much silence comes first
/// (a gap: the chunk came late, or was refused by a writer that fell behind) and how many of them to leave out
/// (they overlap what is written already). `discardedSamples` turns `retake`'s spans into the sample ranges the
/// finished file leaves out, and `timeReference` gives the `bext` chunk's TimeReference.
public struct VoiceWaveLayout: Sendable, Equatable {
    public let sampleRate: Int32
    /// Samples placed so far: the next one is at file time `nextSample` / rate.
    public private(set) var nextSample: Int64 = 0

    public init(sampleRate: Int32) {
        precondition(sampleRate > 0, "a sample rate is positive")
        self.sampleRate = sampleRate
    }

    /// What to write for `count` samples whose first is at `fileTime`.
    public struct Placement: Sendable, Equatable {
        /// Silent samples to write first.
        public var silence: Int
        /// Samples to leave out at the front of those handed over (already covered).
        public var skip: Int
    }

    /// Places `count` samples at `fileTime` (rounded to the nearest sample) after those placed before.
    public mutating func place(count: Int, at fileTime: MediaTime) -> Placement {
        let index = (try? fileTime.rescaled(to: sampleRate, rounding: .nearest).value) ?? nextSample
        let placement: Placement
        if index >= nextSample {
            placement = Placement(silence: Int(clamping: index - nextSample), skip: 0)
        } else {
            placement = Placement(silence: 0, skip: Int(clamping: min(Int64(count), nextSample - index)))
        }
        nextSample += Int64(placement.silence) + Int64(count - placement.skip)
        return placement
    }

    /// The sample ranges of `spans` (file time, in order, not overlapping) at `sampleRate`: those the finished file
    /// leaves out. Each edge is rounded to the nearest sample, as `place` rounds, so a span cuts exactly the samples
    /// placed in it.
    public static func discardedSamples(_ spans: [Range<MediaTime>], sampleRate: Int32) -> [Range<Int64>] {
        spans.compactMap { span in
            guard let lower = try? span.lowerBound.rescaled(to: sampleRate, rounding: .nearest).value,
                  let upper = try? span.upperBound.rescaled(to: sampleRate, rounding: .nearest).value,
                  lower < upper else { return nil }
            return max(0, lower)..<upper
        }
    }

    /// The `bext` TimeReference of a file whose first sample is at the wall-clock instant `date`: samples at
    /// `sampleRate` since the midnight before it in `timeZone` (the time of day as editors read it, in samples).
    public static func timeReference(of date: Date, timeZone: TimeZone, sampleRate: Int32) -> UInt64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight = calendar.startOfDay(for: date)
        let seconds = max(0, date.timeIntervalSince(midnight))
        // Whole microseconds first, so the product stays exact for any time of day.
        let microseconds = UInt64((seconds * 1_000_000).rounded(.down))
        return microseconds * UInt64(sampleRate) / 1_000_000
    }
}
