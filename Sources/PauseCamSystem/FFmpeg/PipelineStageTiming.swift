import CFFmpeg
import PauseCamCore

/// For `make bench`: what the encoding pipeline's own stages besides x264 cost when each runs alone on this machine
/// — drawing a picture onto the canvas (copy, scaling, the BT.709 matrix) and encoding AAC — so the same-job figure
/// can be set against the whole job's floor (x264 alone plus these), not only x264's. The stages are internal to
/// this module, so the bench asks here. Figures are the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): the
/// bench machine is shared, and a stage alone runs on one thread.
public enum PipelineStageTiming {
    /// Milliseconds of CPU per picture drawn: `frames` (looped to `count`) drawn onto a `width`×`height` canvas as
    /// the encoding pipeline does (`CanvasScaler.scale`, the canvas recycled for the next).
    public static func drawingMilliseconds(frames: [VideoFrame], count: Int, width: Int, height: Int) throws -> Double {
        guard !frames.isEmpty, count > 0 else { return 0 }
        let scaler = CanvasScaler(width: width, height: height)
        scaler.recycle(try scaler.scale(frames[0]))
        let start = CanvasScalerTiming.threadCPUNanoseconds()
        for index in 0..<count { scaler.recycle(try scaler.scale(frames[index % frames.count])) }
        return Double(CanvasScalerTiming.threadCPUNanoseconds() - start) / 1e6 / Double(count)
    }

    /// Milliseconds of CPU to encode `chunks` (in time order, file times from zero) with the pipeline's AAC encoder
    /// and `settings`, flush included; packets are discarded.
    public static func audioMilliseconds(chunks: [AudioChunk], settings: MovieSettings.AudioSettings) throws -> Double {
        let encoder = try AudioEncoder(settings: settings, globalHeader: true)
        let discard: (UnsafeMutablePointer<AVPacket>) throws -> Void = { _ in }
        let start = CanvasScalerTiming.threadCPUNanoseconds()
        for chunk in chunks { try encoder.append(chunk, emit: discard) }
        try encoder.flush(emit: discard)
        return Double(CanvasScalerTiming.threadCPUNanoseconds() - start) / 1e6
    }
}
