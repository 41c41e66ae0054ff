import CFFmpeg
import PauseCamCore

/// For `make bench`: what the encoding pipeline's own stages besides x264 cost when each runs alone on this machine
/// — drawing a picture onto the canvas (copy, scaling, the BT.709 matrix) and encoding AAC — so the same-job figure
/// can be set against the whole job's floor (x264 alone plus these), not only x264's. The stages are internal to
/// this module and call C, so the bench asks here; the `Bench` SPI keeps it out of the program's view (only a
/// module that imports `@_spi(Bench) PauseCamSystem` sees it). Figures are the calling thread's CPU time
/// (`CLOCK_THREAD_CPUTIME_ID`): the bench machine is shared, and a stage alone runs on one thread.
@_spi(Bench) public enum PipelineStageTiming {
    /// Whether a movie `height` lines high holds BT.709 values, so drawing changes the sources' BT.601 matrix
    /// (`VideoColorimetry`'s rule): a same job elsewhere must convert too.
    public static func convertsToBT709(height: Int) -> Bool { VideoColorimetry(height: height) == .bt709 }

    /// Milliseconds of CPU per picture drawn: `frames` (looped to `count`) drawn onto a `width`×`height` canvas as
    /// the encoding pipeline does (`CanvasScaler.scale`, the canvas recycled for the next).
    public static func drawingMilliseconds(frames: [VideoFrame], count: Int, width: Int, height: Int) throws -> Double {
        guard !frames.isEmpty, count > 0 else { return 0 }
        let scaler = CanvasScaler(width: width, height: height)
        scaler.recycle(try scaler.scale(frames[0]))
        return try ThreadCPUTime.milliseconds(perRun: count) { index in
            scaler.recycle(try scaler.scale(frames[index % frames.count]))
        }
    }

    /// Milliseconds of CPU to encode `chunks` (in time order, file times from zero) with the pipeline's AAC encoder
    /// and `settings`, flush included; packets are discarded.
    public static func audioMilliseconds(chunks: [AudioChunk], settings: MovieSettings.AudioSettings) throws -> Double {
        let encoder = try AudioEncoder(settings: settings, globalHeader: true)
        let discard: (EncodedPacket) throws -> Void = { _ in }
        return try ThreadCPUTime.milliseconds(perRun: 1) { _ in
            for chunk in chunks { try encoder.append(chunk, emit: discard) }
            try encoder.flush(emit: discard)
        }
    }
}
