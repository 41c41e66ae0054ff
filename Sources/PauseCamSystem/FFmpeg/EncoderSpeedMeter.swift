import CFFmpeg
import Foundation
import PauseCamCore

/// Measures how fast libx264 encodes frames on this machine: the figures behind `preset: auto` and
/// `pausecam check --measure`, and the floor of `make bench` (the encoder alone, nothing else of the pipeline).
///
/// Frames are copied into `AVFrame`s before the clock starts, and the time includes the encoder's flush, so a
/// figure is x264's own throughput with its usual threads. Runs on the caller's thread and blocks it.
public enum EncoderSpeedMeter {
    /// Presets measured fastest first, stopping at the first below `EncoderPresetChoice.headroom` × the rate. Each
    /// burst is `burstFrames` frames or `burstSeconds` of wall time, whichever ends first, so a whole measurement
    /// takes a few seconds at most.
    public static func measure(width: Int, height: Int, rate: FrameRate, burstFrames: Int = 30,
                               burstSeconds: Double = 1.0) throws -> EncoderSpeedMeasurement {
        FFmpegLogLevel.quiet()
        let frames = CameraLikeFrames.make(width: width, height: height, count: 8)
        var samples: [EncoderSpeedMeasurement.Sample] = []
        for preset in EncoderPresetChoice.ladder {
            let fps = try framesPerSecond(preset: preset, frames: frames, count: burstFrames, width: width,
                                          height: height, rate: rate, deadline: burstSeconds)
            samples.append(.init(preset: preset, framesPerSecond: fps))
            if fps < EncoderPresetChoice.requiredFramesPerSecond(for: rate) { break }
        }
        return EncoderSpeedMeasurement(width: width & ~1, height: height & ~1, rate: rate, samples: samples)
    }

    /// Encodes `count` frames, cycling through `frames` (yuv420p, `width`×`height`), with `preset` at `crf` and a
    /// 2 s keyframe interval, and returns frames per second including the flush. With a `deadline` (seconds) it
    /// stops feeding frames once that much time has passed and counts only the frames fed.
    public static func framesPerSecond(preset: String, crf: Int = 23, frames: [VideoFrame], count: Int, width: Int,
                                       height: Int, rate: FrameRate, deadline: Double? = nil) throws -> Double {
        try run(preset: preset, crf: crf, frames: frames, count: count, width: width, height: height, rate: rate,
                deadline: deadline).framesPerSecond
    }

    /// One timed encode: its throughput, and the CPU it took.
    public struct Run: Sendable {
        /// Frames fed per second of wall time, the flush included.
        public var framesPerSecond: Double
        /// CPU time of the whole process (every thread: x264 runs its own) from the first frame fed to the end of
        /// the flush, in milliseconds per frame fed. The pictures are made before, outside both figures.
        public var cpuMillisecondsPerFrame: Double
    }

    /// `framesPerSecond`, with the CPU time it took: the floor of `make bench`.
    public static func run(preset: String, crf: Int = 23, frames: [VideoFrame], count: Int, width: Int,
                           height: Int, rate: FrameRate, deadline: Double? = nil) throws -> Run {
        let settings = MovieSettings(width: width, height: height, rate: rate, preset: preset, crf: crf, audio: nil)
        let encoder = try VideoEncoder(settings: settings, globalHeader: false)
        let pictures = try frames.map { try picture(from: $0, width: width & ~1, height: height & ~1) }
        defer { pictures.forEach(FFmpegFrame.release) }
        let discard: (EncodedPacket) throws -> Void = { _ in }
        let start = DispatchTime.now().uptimeNanoseconds, cpuStart = ProcessCPUTime.seconds()
        var fed = 0
        for index in 0..<count {
            let time = MediaTime(value: Int64(index) * Int64(rate.denominator), timescale: rate.numerator)
            try encoder.encode(pictures[index % pictures.count], at: time, keyframe: false, emit: discard)
            fed += 1
            if let deadline, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 > deadline { break }
        }
        try encoder.flush(emit: discard)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = ProcessCPUTime.seconds() - cpuStart
        return Run(framesPerSecond: Double(fed) / max(elapsed, 1e-9),
                   cpuMillisecondsPerFrame: cpu * 1000 / Double(max(fed, 1)))
    }

    /// A canvas `AVFrame` holding `frame`, fitted by the canvas scaler; the caller owns it.
    static func picture(from frame: VideoFrame, width: Int, height: Int) throws -> UnsafeMutablePointer<AVFrame> {
        try CanvasScaler(width: width, height: height).scale(frame)
    }
}
