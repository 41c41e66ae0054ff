import Foundation

/// The microphone's live level: the peak of the last 100 ms (the shell's meter) and how long the input has been
/// silent while recording (a warning at 5 s: a muted or unplugged-in-software microphone ruins a take quietly).
///
/// Fed every captured chunk on the serial context, in capture time; a value type with no clock of its own.
public struct LevelMeter: Sendable {
    /// How far back the meter's peak looks.
    public static let window = MediaTime.milliseconds(100)
    /// Below this the input counts as silent: −60 dBFS, under any room's noise floor.
    public static let silenceFloor = -60.0
    /// How long a silent input is recorded before the warning.
    public static let silenceWarningAfter = MediaTime.seconds(5)
    /// The peak amplitude (of full-scale 16-bit) at or below which a chunk is silent: `silenceFloor` in samples.
    static let silentAmplitude = Int(32_768 * pow(10, silenceFloor / 20))

    /// Each recent chunk's end and peak amplitude, oldest first, covering at least `window`.
    private var recent: [(end: MediaTime, peak: Int)] = []
    /// How long the input has been silent while recording (a pause neither counts nor resets it; sound does).
    private var silentFor = MediaTime.zero
    /// The warning for the current silent stretch was given.
    private var warned = false

    public init() {}

    /// Takes a captured chunk; `recording` says whether a clip is recording now (silence only counts then).
    /// Returns true exactly once per silent stretch, when it has lasted `silenceWarningAfter`.
    public mutating func add(_ chunk: AudioChunk, recording: Bool) -> Bool {
        add(peak: Self.peakAmplitude(chunk.samples), from: chunk.pts, to: chunk.end, recording: recording)
    }

    /// The largest magnitude in `samples`. Every sample passes here; optimized even in a debug build (see
    /// `VoiceDesk.release`).
    public static func peakAmplitude(_ samples: [Int16]) -> Int {
        samples.withUnsafeBufferPointer(peakAmplitude(in:))
    }

    @_optimize(speed)
    private static func peakAmplitude(in buffer: UnsafeBufferPointer<Int16>) -> Int {
        var peak = 0
        for sample in buffer {
            let value = Int(sample)
            peak = max(peak, value < 0 ? -value : value)
        }
        return peak
    }

    /// `add(_:recording:)` for a chunk of sound from `from` to `to` whose peak magnitude is `peak`.
    public mutating func add(peak: Int, from: MediaTime, to end: MediaTime, recording: Bool) -> Bool {
        recent.append((end, peak))
        let horizon = end - Self.window
        while recent.count > 1, recent[1].end <= horizon { recent.removeFirst() }
        guard peak <= Self.silentAmplitude else {
            silentFor = .zero
            warned = false
            return false
        }
        guard recording else { return false }
        silentFor = silentFor + (end - from)
        if !warned, silentFor >= Self.silenceWarningAfter {
            warned = true
            return true
        }
        return false
    }

    /// The peak of the last `window` of input in dBFS (−∞ for digital silence), or `nil` before any input.
    public var peak: Double? {
        guard let newest = recent.last else { return nil }
        let horizon = newest.end - Self.window
        let amplitude = recent.filter { $0.end > horizon }.reduce(0) { max($0, $1.peak) }
        return SoundLevel.decibels(amplitude: Double(amplitude))
    }
}
