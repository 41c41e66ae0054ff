import CFFmpeg
import Glibc
import PauseCamCore

/// For `PauseCamBench matrix`: what fitting one frame onto an HD canvas costs, split into its parts, on this
/// machine. The canvas scaler is internal to this module and the timing calls libswscale, so the bench asks here
/// rather than building its own; the `Bench` SPI keeps it out of the program's view (only a module that imports
/// `@_spi(Bench) PauseCamSystem` sees it). Figures are the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), so
/// other work on the machine does not count: the bench machine is shared.
@_spi(Bench) public enum CanvasScalerTiming {
    /// Milliseconds per frame, each averaged over the same number of frames.
    public struct Figures: Sendable {
        /// `CanvasScaler.scale` as the encoder thread runs it: canvas allocation, libswscale keeping BT.601, and
        /// (from 720 lines) the matrix conversion — or, for a picture at the canvas's size, the pass that skips
        /// libswscale (`CanvasScaler.draw`).
        public var scale: Double
        /// The matrix conversion alone, on the same canvas.
        public var matrix: Double
        /// libswscale changing the matrix itself (through RGB), as before the conversion existed: the figure to
        /// beat.
        public var swscaleThroughRGB: Double
        /// For a full-range picture (a decoded JPEG): `scale` through libswscale and the matrix pass, as before
        /// `FullRangePictureConverter`, and through its one pass. Nil for a limited-range picture.
        public var fullRange: (swscaleAndMatrix: Double, onePass: Double)?
    }

    /// Times `frames` runs of each part for `frame` (uncompressed) on a `width`×`height` canvas.
    public static func measure(_ frame: VideoFrame, width: Int, height: Int, frames: Int) throws -> Figures {
        let scaler = CanvasScaler(width: width, height: height)
        var picture: UnsafeMutablePointer<AVFrame>? = try scaler.scale(frame)
        defer { av_frame_free(&picture) }
        let scale = try milliseconds(frames) {
            var made: UnsafeMutablePointer<AVFrame>? = try scaler.scale(frame)
            av_frame_free(&made)
        }
        let canvas = CanvasScaler.planes(of: picture!)
        let whole = PixelRect(x: 0, y: 0, width: scaler.width, height: scaler.height)
        let matrix = milliseconds(frames) { YUVMatrixConverter.bt601ToBT709.convert(canvas, in: whole) }
        let context = try ScalerContext(ScalerContext.Key(
            sourceWidth: frame.width, sourceHeight: frame.height, format: frame.format, range: frame.range,
            targetWidth: scaler.width, targetHeight: scaler.height), output: .bt709)
        let (_, planeCount) = CanvasScaler.ffmpegFormat(frame.format)
        var strides = frame.planes.prefix(planeCount).map { Int32($0.stride) }
        strides += [Int32](repeating: 0, count: 4 - strides.count)
        var targets: [UnsafeMutablePointer<UInt8>?] = canvas.data + [nil]
        var targetStrides = canvas.stride.map { Int32($0) } + [0]
        let throughRGB = try milliseconds(frames) {
            let result = CanvasScaler.withBaseAddresses(Array(frame.planes.prefix(planeCount))) { bases in
                var sources = bases + [UnsafePointer<UInt8>?](repeating: nil, count: 4 - bases.count)
                return sws_scale(context.pointer, &sources, &strides, 0, Int32(frame.height), &targets, &targetStrides)
            }
            try FFmpegError.check(result, "sws_scale(\(frame.format.rawValue) through RGB, bench)")
        }
        var fullRange: (Double, Double)?
        if frame.range == .full {
            let twoPasses = CanvasScaler(width: width, height: height), onePass = CanvasScaler(width: width, height: height)
            twoPasses.drawsFullRangeInOnePass = false
            onePass.drawsFullRangeInOnePass = true
            func drawing(_ scaler: CanvasScaler) throws -> Double {
                let canvas = try scaler.scale(frame)
                defer { scaler.recycle(canvas) }
                return try milliseconds(frames) { try scaler.draw(frame, into: canvas) }
            }
            fullRange = (try drawing(twoPasses), try drawing(onePass))
        }
        return Figures(scale: scale, matrix: matrix, swscaleThroughRGB: throughRGB, fullRange: fullRange)
    }

    /// The mean CPU time of this thread over `count` runs of `work`, in milliseconds.
    private static func milliseconds(_ count: Int, _ work: () throws -> Void) rethrows -> Double {
        try ThreadCPUTime.milliseconds(perRun: count) { _ in try work() }
    }
}
