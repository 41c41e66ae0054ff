/// The threads of a movie's encoding, as `SystemHooks` sees them.
public enum EncodingStage: Sendable, Equatable {
    /// `MovieWriter`'s encoder thread: takes each video job and draws its picture onto a canvas.
    case drawing
    /// `EncodingPipeline`'s x264 thread: hands each canvas (or a repeat of the last) to x264 and muxes the packets.
    case x264
    /// `EncodingPipeline`'s audio thread: encodes each chunk to AAC and muxes the packets.
    case audio
}
