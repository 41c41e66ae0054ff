import Foundation

/// The rig's voices made into one stream the recorder takes like a microphone's: each card's sound placed on the
/// session clock (`CardAligner`, one per card, each with its own drift correction), split into its voices, each
/// voice raised or lowered by its gain, and mixed with its pan into a stereo pair. Every chunk the desk gives has
/// `2 + voices` interleaved channels — the mix's left and right, then each voice — at `outputRate`, starting on the
/// grid (frame `n` at `n / outputRate` s), so the recorder's one timeline cuts, retimes and declicks every track
/// alike and the movie writer splits them into tracks (`MovieSettings.AudioSettings.tracks`).
///
/// A card that has sound waits for the others up to `maximumLag`; a card further behind, gone (unplugged) or not
/// yet started is silence for that span, so one microphone's trouble never holds the rest. Used on the serial
/// context.
public struct VoiceDesk {
    /// How long the sound of the cards that deliver waits for a late one: more than a USB card's periods and the
    /// serial context's scheduling jitter, far less than the recorder's own wait for video.
    public static let maximumLag = MediaTime.milliseconds(250)
    /// How long a voice counts as clipping after it last reached full scale.
    public static let clippingHold = MediaTime.seconds(2)

    public let voices: [Rig.Voice]
    public let plan: VoiceCardPlan
    public let outputRate: Int32
    private let resamplers: any SoundResamplerMaking
    private var cards: [CardState]
    /// The next grid frame to give; `nil` before the first sound.
    private var emitted: Int64?
    private let lagFrames: Int64
    private var meters: [VoiceMeter]
    /// Each voice's peak in dBFS after its gain over the last chunk given (`nil`: digital silence): what `follow`
    /// judges.
    public private(set) var chunkPeaks: [Double?] = []

    private struct CardState {
        var aligner: CardAligner
        var gone = false
        /// Its sound came back after it was gone, and that is still to be told.
        var cameBack = false
    }

    /// One voice's live level, after its gain.
    struct VoiceMeter {
        var level = LevelMeter()
        var holdPeak: (end: MediaTime, amplitude: Int)? = nil
        var lastClip: MediaTime?
        /// Samples at full scale not yet reported in a `voiceClipping` event.
        var unreportedClips = 0
        var lastClipReport: MediaTime?
        var latestPeak: Double?
    }

    /// What happened to the voices while the desk worked, for the engine to tell.
    public enum Happening: Sendable, Equatable {
        case silent(voice: Int)
        case clipping(voice: Int, samples: Int)
        case cameBack(voice: Int)
    }
    private(set) var happenings: [Happening] = []

    public init(voices: [Rig.Voice], outputRate: Int32 = 48_000, resamplers: any SoundResamplerMaking) {
        self.voices = voices
        plan = VoiceCardPlan(voices: voices)
        self.outputRate = outputRate
        self.resamplers = resamplers
        cards = plan.cards.map { _ in CardState(aligner: CardAligner(outputRate: outputRate)) }
        lagFrames = CardAligner.gridFrame(of: Self.maximumLag, rate: outputRate)
        meters = voices.map { _ in VoiceMeter() }
        gains = voices.map(\.gainDecibels)
        muted = voices.map(\.mute)
    }

    /// Each voice's gain in dB (the rig's, changed by `voice NAME gain`).
    public private(set) var gains: [Double]
    /// Each voice left out of the mix (`voice NAME mute`).
    public private(set) var muted: [Bool]

    public mutating func setGain(_ decibels: Double, voice: Int) { gains[voice] = decibels }
    public mutating func setMuted(_ mute: Bool, voice: Int) { muted[voice] = mute }

    /// Whether the card of `voice` is gone (unplugged).
    public func isGone(voice: Int) -> Bool { cards[plan.cardOfVoice[voice]].gone }

    /// The interleaved channels of every chunk the desk gives.
    public var channels: Int { 2 + voices.count }

    /// Takes a chunk captured by card `card`; returns the mixed chunks now complete, in order.
    public mutating func add(_ chunk: AudioChunk, card: Int, recording: Bool) throws -> [AudioChunk] {
        guard cards.indices.contains(card), chunk.frameCount > 0 else { return [] }
        if cards[card].gone {
            cards[card].gone = false
            for voice in plan.cards[card].voices { happenings.append(.cameBack(voice: voice)) }
        }
        try cards[card].aligner.add(chunk, resamplers: resamplers)
        if emitted == nil { emitted = cards[card].aligner.bufferStart }
        return release(recording: recording, everything: false)
    }

    /// Card `card` went away: its voices are silence until it is back, and the others no longer wait for it.
    public mutating func cardEnded(_ card: Int, recording: Bool) -> [AudioChunk] {
        guard cards.indices.contains(card), !cards[card].gone else { return [] }
        cards[card].gone = true
        cards[card].aligner.reset()
        return release(recording: recording, everything: false)
    }

    /// Everything placed so far, the late cards' missing sound as silence (the clip is stopping).
    public mutating func flush(recording: Bool) -> [AudioChunk] {
        release(recording: recording, everything: true)
    }

    /// What happened since the last call.
    public mutating func takeHappenings() -> [Happening] {
        defer { happenings.removeAll() }
        return happenings
    }

    /// The grid frame through which every card has been heard from, or waited for long enough.
    private func readyFrame(everything: Bool) -> Int64? {
        let ends = cards.compactMap { $0.gone ? nil : $0.aligner.end }
        guard let newest = ends.max() else { return nil }
        if everything { return newest }
        var ready = newest
        for card in cards where !card.gone {
            ready = min(ready, card.aligner.end ?? (emitted ?? newest))
        }
        return max(ready, newest - lagFrames)
    }

    private mutating func release(recording: Bool, everything: Bool) -> [AudioChunk] {
        guard var from = emitted, let to = readyFrame(everything: everything), to > from else { return [] }
        // After a long time without sound (no clip took it), the silence before now is not worth giving.
        let longest = Int64(outputRate)
        if to - from > longest { from = to - longest }
        let frames = Int(to - from)
        let stride = 2 + voices.count
        var out = [Int16](repeating: 0, count: frames * stride)
        var left = [Float](repeating: 0, count: frames)
        var right = [Float](repeating: 0, count: frames)
        let start = MediaTime(value: from, timescale: outputRate)
        let end = MediaTime(value: to, timescale: outputRate)
        for (index, voice) in voices.enumerated() {
            let card = cards[plan.cardOfVoice[index]].aligner
            let gain = Float(pow(10, gains[index] / 20))
            let angle = Float((voice.pan + 1) * Double.pi / 4)
            let toLeft = muted[index] ? 0 : cos(angle)
            let toRight = muted[index] ? 0 : sin(angle)
            let (peak, clipped) = out.withUnsafeMutableBufferPointer { out in
                left.withUnsafeMutableBufferPointer { left in
                    right.withUnsafeMutableBufferPointer { right in
                        card.withPlaced(from: from, to: to) { source, first, offset, count in
                            Self.place(source, first: first + voice.channelIndex, sourceStride: card.channels,
                                       count: count, gain: gain, into: out, at: offset * stride + 2 + index,
                                       stride: stride, left: left, right: right, toLeft: toLeft, toRight: toRight,
                                       offset: offset)
                        } ?? (0, 0)
                    }
                }
            }
            meter(index, peak: peak, clipped: clipped, from: start, to: end, recording: recording)
        }
        out.withUnsafeMutableBufferPointer { out in
            left.withUnsafeBufferPointer { left in
                right.withUnsafeBufferPointer { right in Self.mix(left, right, into: out, stride: stride) }
            }
        }
        for index in cards.indices { cards[index].aligner.discard(before: to) }
        emitted = to
        return [AudioChunk(pts: start, sampleRate: outputRate, channels: stride, samples: out)]
    }

    /// One voice's samples (every `sourceStride`th of `source` from `first`) with its gain onto its own channel of
    /// `out` (every `stride`th from `at`) and, with its pan, onto the mix; gives its peak and its clipped samples.
    /// Every sample of every voice passes here, so it is optimized even in a debug build — the one the real-driver
    /// VM test runs under emulation, where the unoptimized loop could not keep up with two voices.
    @_optimize(speed)
    private static func place(_ source: UnsafeBufferPointer<Int16>, first: Int, sourceStride: Int, count: Int,
                              gain: Float, into out: UnsafeMutableBufferPointer<Int16>, at: Int, stride: Int,
                              left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>,
                              toLeft: Float, toRight: Float, offset: Int) -> (peak: Int, clipped: Int) {
        var peak = 0
        var clipped = 0
        var read = first
        var write = at
        for n in offset..<(offset + count) {
            var value = Float(source[read]) * gain
            if value >= 32_767 {
                value = 32_767
                clipped += 1
            } else if value <= -32_768 {
                value = -32_768
                clipped += 1
            }
            let sample = Int16(value.rounded())
            out[write] = sample
            let magnitude = Int(sample)
            peak = max(peak, magnitude < 0 ? -magnitude : magnitude)
            left[n] += value * toLeft
            right[n] += value * toRight
            read += sourceStride
            write += stride
        }
        return (peak, clipped)
    }

    /// The mix's two channels into the first two of every frame of `out`, clipped to 16 bits.
    @_optimize(speed)
    private static func mix(_ left: UnsafeBufferPointer<Float>, _ right: UnsafeBufferPointer<Float>,
                            into out: UnsafeMutableBufferPointer<Int16>, stride: Int) {
        var write = 0
        for n in 0..<left.count {
            out[write] = Int16(max(-32_768, min(32_767, left[n].rounded())))
            out[write + 1] = Int16(max(-32_768, min(32_767, right[n].rounded())))
            write += stride
        }
    }

    private mutating func meter(_ voice: Int, peak: Int, clipped: Int, from start: MediaTime, to end: MediaTime,
                                recording: Bool) {
        var meter = meters[voice]
        let decibels = SoundLevel.decibels(amplitude: Double(peak))
        if chunkPeaks.count != voices.count { chunkPeaks = Array(repeating: nil, count: voices.count) }
        chunkPeaks[voice] = decibels.isFinite ? decibels : nil
        if meter.level.add(peak: peak, from: start, to: end, recording: recording) {
            happenings.append(.silent(voice: voice))
        }
        meter.latestPeak = meter.level.peak
        if meter.holdPeak == nil || peak >= meter.holdPeak!.amplitude
            || end - meter.holdPeak!.end > Self.clippingHold {
            meter.holdPeak = (end, peak)
        }
        if clipped > 0 {
            meter.lastClip = end
            meter.unreportedClips += clipped
            if meter.lastClipReport.map({ end - $0 >= Self.clippingHold }) ?? true {
                happenings.append(.clipping(voice: voice, samples: meter.unreportedClips))
                meter.unreportedClips = 0
                meter.lastClipReport = end
            }
        }
        meters[voice] = meter
    }

    /// Each voice's peak over the last 100 ms in dBFS after its gain (`nil`: silence or nothing yet).
    public var peaks: [Double?] { meters.map { $0.latestPeak.flatMap { $0.isFinite ? $0 : nil } } }

    /// The voices as the status shows them at session time `now`.
    public func status(now: MediaTime, speaking: [Bool] = []) -> [VoiceStatus] {
        voices.indices.map { index in
            let meter = meters[index]
            let hold = meter.holdPeak.map { SoundLevel.decibels(amplitude: Double($0.amplitude)) }
            return VoiceStatus(name: voices[index].name, peakDBFS: peaks[index],
                               holdDBFS: hold.flatMap { $0.isFinite ? $0 : nil },
                               clipping: meter.lastClip.map { now - $0 <= Self.clippingHold } ?? false,
                               gainDecibels: gains[index], pan: voices[index].pan, muted: muted[index],
                               gone: isGone(voice: index),
                               speaking: speaking.indices.contains(index) ? speaking[index] : false)
        }
    }
}
