import Foundation

/// The finishing edits made on a fragmented movie's sample tables instead of on a copy of its packets: the same
/// decisions `ChapterRemuxer` makes packet by packet, expressed as which samples stay in the index and at which
/// decode time. A sample left out keeps its bytes in the file, unreferenced.
///
/// - Video: the fragments start decoding at 0, which delayed every presentation time by the encoder's reorder
///   delay (B-frames); the first sample's presentation time is that delay and is taken off again (the final
///   index's edit list then starts at the first frame).
/// - Audio: the fragments pulled the encoder's priming (`initial_padding`) to 0; it moves back before 0, and the
///   edit list hides it again.
/// - `retake`'s discarded spans: video samples whose presentation time lies in a span are left out and every later
///   one moves back by the span's length (the spans start at forced keyframes, so the cut is exact); audio is cut
///   at whole packets (`WholePacketAudioCut`).
/// - The sound plays only up to the picture's end: packets that start at or after it are left out, and the one
///   across it is cut there.
public struct MovieIndexEdit: Sendable {
    /// A track after the edits: the samples kept, their `decodeTime` the final one (it may be negative: the edit
    /// list starts the presentation at 0), the last one's `duration` possibly shortened.
    public struct EditedTrack: Sendable {
        public var track: FragmentedMovieIndex.Track
        public var samples: [FragmentedMovieIndex.Sample]

        /// The sum of the samples' durations: the track's media length (`mdhd`).
        public var mediaDuration: Int64 { samples.reduce(0) { $0 + $1.duration } }
    }

    /// The audio encoder's priming, in samples at `audioSampleRate`.
    public var audioPrimingSamples: Int64 = 0
    public var audioSampleRate: Int32 = 48_000
    /// The samples one audio packet holds (AAC: 1024); 0 leaves the audio uncut by `discardedSpans`.
    public var audioPacketSamples: Int64 = 0
    /// Spans of file time `retake` discarded, in order.
    public var discardedSpans: [Range<MediaTime>] = []

    public init() {}

    /// Applies the edits to every audio and video track (other tracks are dropped, as the copy maps only those).
    public func apply(to index: FragmentedMovieIndex) -> [EditedTrack] {
        var edited: [EditedTrack] = []
        var videoEnd: (ticks: Int64, timescale: UInt32)?
        for track in index.tracks where track.handler == "vide" {
            let samples = editVideo(track)
            if let end = samples.map({ $0.presentationTime + $0.duration }).max() {
                if let known = videoEnd {
                    if Double(end) / Double(track.timescale) > Double(known.ticks) / Double(known.timescale) {
                        videoEnd = (end, track.timescale)
                    }
                } else {
                    videoEnd = (end, track.timescale)
                }
            }
            edited.append(EditedTrack(track: track, samples: samples))
        }
        for track in index.tracks where track.handler == "soun" {
            var samples = editAudio(track)
            if let videoEnd {
                let endTicks = Self.rescale(videoEnd.ticks, from: Int64(videoEnd.timescale), to: Int64(track.timescale))
                // Whole-packet cuts leave the sound up to half a packet longer than the picture, so the packets
                // past the picture's end may be more than the last one: none of them plays.
                while samples.count > 1, let last = samples.last, last.presentationTime >= endTicks { samples.removeLast() }
                if var last = samples.popLast() {
                    let room = endTicks - last.presentationTime
                    if room > 0 && room < last.duration { last.duration = room }
                    samples.append(last)
                }
            }
            edited.append(EditedTrack(track: track, samples: samples))
        }
        return index.tracks.compactMap { track in edited.first { $0.track.trackID == track.trackID } }
    }

    private func editVideo(_ track: FragmentedMovieIndex.Track) -> [FragmentedMovieIndex.Sample] {
        guard let first = track.samples.first else { return [] }
        let shift = max(0, first.presentationTime)
        let spans = ticks(discardedSpans, timescale: track.timescale)
        var kept = Self.withDecodeDurations(track.samples)
        kept = kept.compactMap { sample in
            var moved = sample
            moved.decodeTime -= shift
            let presentation = moved.presentationTime
            var cut: Int64 = 0
            for span in spans {
                if presentation >= span.upperBound { cut += span.upperBound - span.lowerBound }
                else if presentation >= span.lowerBound { return nil }
            }
            moved.decodeTime -= cut
            return moved
        }
        return Self.closingGaps(kept)
    }

    private func editAudio(_ track: FragmentedMovieIndex.Track) -> [FragmentedMovieIndex.Sample] {
        let priming = Self.rescale(audioPrimingSamples, from: Int64(audioSampleRate), to: Int64(track.timescale))
        let packetTicks = Self.rescale(audioPacketSamples, from: Int64(audioSampleRate), to: Int64(track.timescale))
        var cut = discardedSpans.isEmpty || packetTicks <= 0
            ? nil : WholePacketAudioCut(spans: ticks(discardedSpans, timescale: track.timescale), packetTicks: packetTicks)
        let kept: [FragmentedMovieIndex.Sample] = Self.withDecodeDurations(track.samples).compactMap { sample in
            var moved = sample
            moved.decodeTime -= priming
            if cut != nil {
                guard let shift = cut!.shift(forPacketAt: moved.presentationTime) else { return nil }
                moved.decodeTime -= shift
            }
            return moved
        }
        return Self.closingGaps(kept)
    }

    /// Like the copy, a sample lasts until the next one decodes (the fragments' own durations only for the last).
    private static func withDecodeDurations(_ samples: [FragmentedMovieIndex.Sample]) -> [FragmentedMovieIndex.Sample] {
        var result = samples
        for index in result.indices.dropLast() where result[index + 1].decodeTime > result[index].decodeTime {
            result[index].duration = result[index + 1].decodeTime - result[index].decodeTime
        }
        return result
    }

    /// The index stores durations, not decode times: after a cut, a kept sample lasts until the next kept one.
    private static func closingGaps(_ samples: [FragmentedMovieIndex.Sample]) -> [FragmentedMovieIndex.Sample] {
        var result = samples
        for index in result.indices.dropLast() {
            result[index].duration = max(0, result[index + 1].decodeTime - result[index].decodeTime)
        }
        return result
    }

    private func ticks(_ spans: [Range<MediaTime>], timescale: UInt32) -> [Range<Int64>] {
        spans.map {
            Self.rescale($0.lowerBound.value, from: Int64($0.lowerBound.timescale), to: Int64(timescale))
                ..< Self.rescale($0.upperBound.value, from: Int64($0.upperBound.timescale), to: Int64(timescale))
        }
    }

    /// `value · to / from`, rounded to the nearest (halves away from zero, as `av_rescale_q`).
    static func rescale(_ value: Int64, from: Int64, to: Int64) -> Int64 {
        guard from != to, from > 0 else { return value }
        let product = value.multipliedFullWidth(by: to)
        let (quotient, remainder) = from.dividingFullWidth(product)
        if abs(remainder) * 2 >= from { return quotient + (value < 0 ? -1 : 1) }
        return quotient
    }
}
