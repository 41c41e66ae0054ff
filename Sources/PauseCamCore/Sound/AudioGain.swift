import Foundation

/// The rig's digital gain (`audio: {gain: +6dB}`), applied to every chunk the microphone delivers before anything
/// else sees it: the level meter, the silence watch, the declicker and the encoder all get the gained samples, so
/// the prompt's meter shows what the movie will hold.
///
/// A sample the gain pushes past 16-bit full scale is clipped to it (there is no headroom to keep it in), and the
/// recorder counts full-scale samples as they go to the sink (`Recorder.clippedSamples`), so the sidecar and
/// `status` say honestly how much of the sound was clipped. A value type with no I/O.
public struct AudioGain: Sendable, Equatable {
    /// The gain in decibels, as the rig gave it (0: samples pass untouched).
    public let decibels: Double
    /// The amplitude factor, 10^(dB / 20).
    public let factor: Double

    public init(decibels: Double) {
        self.decibels = decibels
        factor = pow(10, decibels / 20)
    }

    /// True when the gain changes nothing (0 dB): chunks pass without a copy.
    public var isUnity: Bool { decibels == 0 }

    /// `chunk` with every sample multiplied by `factor`, rounded to the nearest integer and clipped to 16-bit full
    /// scale.
    public func apply(to chunk: AudioChunk) -> AudioChunk {
        guard !isUnity else { return chunk }
        var gained = chunk
        let low = Double(Int16.min), high = Double(Int16.max)
        gained.samples = chunk.samples.map { sample in
            Int16(Swift.min(high, Swift.max(low, (Double(sample) * factor).rounded())))
        }
        return gained
    }

    /// How many of `samples` sit at 16-bit full scale (`Int16.min` or `Int16.max`): clipped, by the gain or before
    /// it.
    // Every sample of every chunk passes here; optimized even in a debug build, which the VM test runs under
    // emulation (see `VoiceDesk.release`).
    public static func clippedCount(_ samples: [Int16]) -> Int {
        samples.withUnsafeBufferPointer(clippedCount(in:))
    }

    @_optimize(speed)
    private static func clippedCount(in buffer: UnsafeBufferPointer<Int16>) -> Int {
        var count = 0
        for sample in buffer where sample == .max || sample == .min { count += 1 }
        return count
    }

    /// `+6 dB`, `-3.5 dB`: how `status` and the sidecar's warnings write a gain.
    public var text: String {
        let number = decibels == decibels.rounded() ? String(Int(decibels)) : String(decibels)
        return (decibels > 0 ? "+" : "") + number + " dB"
    }
}
