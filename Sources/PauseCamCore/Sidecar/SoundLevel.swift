import Foundation

/// The peak and RMS of the audio written in one scene, for the sidecar (`audio_peak`, `audio_rms`, in dBFS), so a
/// take whose sound was missing or clipped is found without listening to it.
public struct SoundLevel: Sendable, Equatable {
    /// The largest absolute sample, of full-scale 16-bit.
    public private(set) var peakAmplitude = 0
    private var sumOfSquares = 0.0
    private var count = 0

    public init() {}

    /// Adds the samples of one chunk (every channel).
    // Every sample of every chunk passes here; optimized even in a debug build (see `VoiceDesk.release`).
    public mutating func add(_ samples: [Int16]) {
        let (peak, squares) = samples.withUnsafeBufferPointer(Self.peakAndSquares(of:))
        peakAmplitude = max(peakAmplitude, peak)
        sumOfSquares += squares
        count += samples.count
    }

    @_optimize(speed)
    private static func peakAndSquares(of buffer: UnsafeBufferPointer<Int16>) -> (Int, Double) {
        var peak = 0
        var squares = 0.0
        for sample in buffer {
            let value = Int(sample)
            peak = max(peak, value < 0 ? -value : value)
            squares += Double(value * value)
        }
        return (peak, squares)
    }

    /// Peak in dBFS (`floor` for silence); `nil` before any sample.
    public var peak: Double? { count == 0 ? nil : Self.decibels(amplitude: Double(peakAmplitude)) }
    /// RMS in dBFS (`floor` for silence; a full-scale sine is −3 dBFS); `nil` before any sample.
    public var rms: Double? { count == 0 ? nil : Self.decibels(amplitude: (sumOfSquares / Double(count)).squareRoot()) }

    /// The lowest level reported: JSON has no −∞, and nothing below it is audible.
    public static let floor = -120.0

    /// `amplitude` (of 32768) in dBFS, rounded to 0.1 dB, never below `floor`.
    public static func decibels(amplitude: Double) -> Double {
        guard amplitude > 0 else { return floor }
        let value = 20 * log10(amplitude / 32_768)
        return max(floor, (value * 10).rounded() / 10)
    }
}
