/// The one way into PauseCamSystem's work from outside: the points where the program injects a fault
/// (`InjectedFaults`, made by the composition root from the `PAUSECAM_FAULT_*` variables) and where a test looks
/// inside a thread at a known point (the test target's doubles). Production types carry no code that only a fault
/// or a test runs: they call these hooks, and with none (`nil`, the program's normal case) they run straight
/// through.
///
/// Every call comes on the thread doing the work, which waits until it returns. Each requirement has an empty
/// default, so an implementation states only the points it uses.
public protocol SystemHooks: Sendable {
    /// An encoding stage has taken its next unit of work (a picture or a repeat for `drawing` and `x264`, an audio
    /// chunk for `audio`) and is about to handle it.
    func willHandle(_ stage: EncodingStage)
    /// An encoding stage is done with a unit of work: for `drawing`, drawn and handed to the x264 thread; for `x264`
    /// and `audio`, encoded and its packets muxed (or skipped after an earlier error). `didHandle` follows every
    /// `willHandle`, so counts of the two match once a stage is idle.
    func didHandle(_ stage: EncodingStage)
    /// `MovieWriter`'s encoder thread is about to open the movie at `moviePath` (x264, the AAC encoder, the
    /// `.partial`'s muxer and header).
    func willOpenMovie(_ moviePath: String)
    /// `MovieWriter`'s encoder thread is about to draw and encode a video frame's picture (not a repeat).
    func willEncodeVideoFrame()
    /// The `.partial` is complete and the movie at `moviePath` is about to be made from it (in place or by a copy).
    func willFinishMovie(_ moviePath: String)
    /// The in-place finish has reached `step` (`InPlaceMovieFinisher`).
    func didReachFinishStep(_ step: InPlaceFinishStep)
    /// A `CanvasScaler` decoded a JPEG (a repeated frame, or one the monitor decoded, is not decoded again).
    func didDecodeJPEG()
    /// A `CanvasScaler` allocated a new canvas frame (a recording reuses a few).
    func didAllocateCanvas()
    /// The monitor's worker (`MonitorFeed`) began a round of making pictures (none runs while nobody watches).
    func didRunMonitorRound()
}

extension SystemHooks {
    public func willHandle(_ stage: EncodingStage) {}
    public func didHandle(_ stage: EncodingStage) {}
    public func willOpenMovie(_ moviePath: String) {}
    public func willEncodeVideoFrame() {}
    public func willFinishMovie(_ moviePath: String) {}
    public func didReachFinishStep(_ step: InPlaceFinishStep) {}
    public func didDecodeJPEG() {}
    public func didAllocateCanvas() {}
    public func didRunMonitorRound() {}
}

/// The steps of `InPlaceMovieFinisher`, in order; after each the file on disk is a playable movie.
public enum InPlaceFinishStep: Int, Sendable, CaseIterable {
    /// The chapter titles' `mdat` is appended (the file is still the fragmented movie).
    case chaptersAppended = 1
    /// Half of the new `moov` is written after them (a torn append, as a crash leaves).
    case halfIndexWritten = 2
    /// The whole new `moov` is appended and synced.
    case indexAppended = 3
    /// The old `moov`'s header is overwritten: the file is now a normal movie.
    case switched = 4
    /// The `.partial` is linked to the movie's final name and the folder flushed.
    case linked = 5
}
