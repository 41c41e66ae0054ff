/// The threads of a movie's encoding, as an `EncodingStageObserver` sees them.
enum EncodingStage: Sendable, Equatable {
    /// `MovieWriter`'s encoder thread: takes each video job and draws its picture onto a canvas.
    case drawing
    /// `EncodingPipeline`'s x264 thread: hands each canvas (or a repeat of the last) to x264 and muxes the packets.
    case x264
    /// `EncodingPipeline`'s audio thread: encodes each chunk to AAC and muxes the packets.
    case audio
}

/// A view into the encoding threads from outside, for tests that must see a stage at a known point: hold a thread
/// before a piece of work so the work behind it piles up in its channel, or learn that everything handed over has
/// been encoded and muxed (to copy a `.partial` as a crash would leave it).
///
/// The program passes no observer, and the stages then run straight through: nothing in the writer exists only to
/// be driven by a test. Only the test target implements it.
///
/// Both calls come on the stage's own thread, which waits until they return. A unit of work is a picture or a
/// repeat (`drawing`, `x264`) or an audio chunk (`audio`); `didHandle` follows every `willHandle`, also for work a
/// stage skips after an earlier error, so counts of the two always match once a stage is idle.
protocol EncodingStageObserver: Sendable {
    /// The stage has taken its next unit of work and is about to handle it.
    func willHandle(_ stage: EncodingStage)
    /// The stage is done with a unit of work: for `drawing`, drawn and handed to the x264 thread; for `x264` and
    /// `audio`, encoded and its packets muxed (or skipped after an error).
    func didHandle(_ stage: EncodingStage)
}
