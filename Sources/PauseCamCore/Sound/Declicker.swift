import Foundation

/// Fades the audio out and back in over a few milliseconds at every seam — a pause→resume, and the movie's start
/// and end — so cutting room tone, music or speech mid-wave is not heard as a click.
///
/// The retimer cuts audio at the exact sample and butts the pieces together, which is right for time (duration
/// and A/V sync stay exact) but leaves a step in the waveform. This only changes gains, never where a sample
/// lies: no overlap, no crossfade that would shorten the audio. The fade is a raised cosine (a Hann half-window),
/// whose slope is zero at both ends, so the fade itself adds no click.
///
/// To fade *out* before a seam it must still hold the last `fadeFrames` sample frames when the seam becomes known,
/// so every piece passes through it with that much delay (5 ms by default); `finish()` releases the rest. A value
/// type with no I/O, used from the recorder's serial context.
public struct Declicker: Sendable {
    /// Sample frames of each fade.
    public let fadeFrames: Int
    /// Gain of fade-in position i (0 …): 0.5 × (1 − cos(π i / fadeFrames)), 0 at the cut, rising towards 1.
    private let gains: [Double]
    /// The newest frames, not yet released: at most `fadeFrames`, in order.
    private var held: [AudioChunk] = []
    /// Frames of the current fade-in already applied (`fadeFrames` or more: none in progress).
    private var fadedIn = 0
    /// The file time of a seam announced before the audio after it arrived.
    private var pendingSeam: MediaTime?

    /// A declicker whose fades last `fade` at `sampleRate`; the movie's start counts as a seam.
    public init(sampleRate: Int32, fade: MediaTime = Declicker.defaultFade) {
        let frames = (try? fade.rescaled(to: sampleRate, rounding: .nearest).value) ?? 0
        let count = max(1, Int(frames))
        fadeFrames = count
        gains = (0..<count).map { 0.5 * (1 - cos(Double.pi * Double($0) / Double(count))) }
    }

    /// Long enough to hide the step (a click is a broadband transient; 5 ms is below what a listener hears as a
    /// dip), short enough to keep a word whole.
    public static let defaultFade = MediaTime.milliseconds(5)

    /// A seam at file time `time`: the audio before it fades out, the audio from it on fades in. Returns audio now
    /// ready for the sink (a seam still pending when another comes is applied first).
    public mutating func seam(at time: MediaTime) -> [AudioChunk] {
        let ready = applyPendingSeam()
        pendingSeam = time
        return ready
    }

    /// Takes the next retimed piece (in file-time order) and returns what is ready for the sink, in order.
    public mutating func process(_ piece: AudioChunk) -> [AudioChunk] {
        guard piece.frameCount > 0 else { return [] }
        var ready: [AudioChunk] = []
        if let seam = pendingSeam, piece.end > seam,
           piece.pts > seam - MediaTime(value: 1, timescale: piece.sampleRate) {
            ready = applyPendingSeam()
        }
        var piece = piece
        fadeIn(&piece)
        held.append(piece)
        var heldFrames = held.reduce(0) { $0 + $1.frameCount }
        while heldFrames > fadeFrames, let first = held.first {
            let excess = heldFrames - fadeFrames
            if first.frameCount <= excess {
                ready.append(first)
                held.removeFirst()
                heldFrames -= first.frameCount
            } else {
                ready.append(first.slice(0..<excess))
                held[0] = first.slice(excess..<first.frameCount)
                heldFrames -= excess
            }
        }
        return ready
    }

    /// The audio stops here for a while — its microphone ended (unplugged) mid-clip — and the movie will have
    /// a hole (silence) until a later piece: the held tail fades out now and is released, and whatever piece comes
    /// next fades in, so neither edge of the hole cuts the sound mid-wave. A seam still pending is applied first.
    public mutating func gap() -> [AudioChunk] {
        let ready = applyPendingSeam()
        fadedIn = 0
        return ready + fadeOutHeld()
    }

    /// The movie ends: the held tail fades out and is released.
    public mutating func finish() -> [AudioChunk] {
        pendingSeam = nil
        return fadeOutHeld()
    }

    private mutating func applyPendingSeam() -> [AudioChunk] {
        guard pendingSeam != nil else { return [] }
        pendingSeam = nil
        let ready = fadeOutHeld()
        fadedIn = 0
        return ready
    }

    /// Fades the held frames out so the last one is silent, and releases them.
    private mutating func fadeOutHeld() -> [AudioChunk] {
        var fromEnd = 0
        for index in held.indices.reversed() {
            let channels = held[index].channels
            for frame in stride(from: held[index].frameCount - 1, through: 0, by: -1) {
                let gain = fromEnd < fadeFrames ? gains[fromEnd] : 1
                fromEnd += 1
                for channel in 0..<channels {
                    let at = frame * channels + channel
                    held[index].samples[at] = Int16((Double(held[index].samples[at]) * gain).rounded())
                }
            }
        }
        defer { held.removeAll() }
        return held
    }

    /// Applies what is left of the current fade-in to the head of `piece`.
    private mutating func fadeIn(_ piece: inout AudioChunk) {
        guard fadedIn < fadeFrames else { return }
        let channels = piece.channels
        var frame = 0
        while frame < piece.frameCount, fadedIn < fadeFrames {
            let gain = gains[fadedIn]
            for channel in 0..<channels {
                let at = frame * channels + channel
                piece.samples[at] = Int16((Double(piece.samples[at]) * gain).rounded())
            }
            frame += 1
            fadedIn += 1
        }
    }
}
