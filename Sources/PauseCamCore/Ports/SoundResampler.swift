/// Resamples one sound card's interleaved 16-bit audio to the movie's rate, stretching or squeezing it by a hair on
/// request: how the voice desk keeps each card's own crystal on the session clock (`CardAligner`). libswresample in
/// PauseCamSystem; a pass-through in Core's tests. Used on the serial context only.
public protocol SoundResampler: AnyObject {
    /// Output frames (per channel) still inside the resampler: where the next input frame will come out.
    var delay: Int64 { get }
    /// Asks for `delta` more (fewer, when negative) output frames over the next `distance` output frames.
    func setCompensation(delta: Int, distance: Int) throws
    /// Converts interleaved frames at the input rate into interleaved frames at the output rate, same channels.
    func convert(_ samples: [Int16]) throws -> [Int16]
}

/// Makes a `SoundResampler` for a card's format.
public protocol SoundResamplerMaking: Sendable {
    func makeResampler(inputRate: Int32, channels: Int, outputRate: Int32) throws -> any SoundResampler
}
