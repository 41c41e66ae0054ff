import CFFmpeg
import PauseCamCore

/// One libswscale context for one conversion: a source size, pixel format and colour range, onto a target
/// rectangle of the yuv420p canvas in the canvas's limited range and colour standard. Owns its `SwsContext`.
///
/// The ranges are set before `sws_init_context` (as FFmpeg's `scale` filter does), not afterwards with
/// `sws_setColorspaceDetails` alone: libswscale picks its unscaled fast paths at init, and a same-size copy chosen
/// for limited-to-limited would ignore a range set later.
final class ScalerContext {
    /// What a context is built for; the canvas scaler caches contexts by it.
    struct Key: Hashable {
        var sourceWidth: Int
        var sourceHeight: Int
        var format: PixelFormat
        var range: ColorRange
        var targetWidth: Int
        var targetHeight: Int
    }

    let key: Key
    let pointer: OpaquePointer

    /// Builds the context: bilinear scaling, `key.range` in, limited out, BT.601 sources into `output`'s matrix.
    /// The corresponding C functions are `sws_alloc_context`, `av_opt_set_int`, `sws_init_context`.
    init(_ key: Key, output: VideoColorimetry) throws {
        let (sourceFormat, _) = CanvasScaler.ffmpegFormat(key.format)
        let what = "\(key.sourceWidth)x\(key.sourceHeight) \(key.format.rawValue) \(key.range.rawValue) range → "
            + "\(key.targetWidth)x\(key.targetHeight) yuv420p limited range"
        guard let context = sws_alloc_context() else {
            throw FFmpegError("sws_alloc_context(\(what))", code: pausecam_averror(ENOMEM))
        }
        let options: [(String, Int64)] = [
            ("srcw", Int64(key.sourceWidth)), ("srch", Int64(key.sourceHeight)),
            ("src_format", Int64(sourceFormat.rawValue)),
            ("dstw", Int64(key.targetWidth)), ("dsth", Int64(key.targetHeight)),
            ("dst_format", Int64(AV_PIX_FMT_YUV420P.rawValue)),
            ("sws_flags", Int64(SWS_BILINEAR)),
            ("src_range", Int64(key.range.swsRange)), ("dst_range", Int64(ColorRange.limited.swsRange)),
        ]
        do {
            for (name, value) in options {
                try FFmpegError.check(av_opt_set_int(UnsafeMutableRawPointer(context), name, value, 0),
                                      "av_opt_set_int(\(name)=\(value)) for sws \(what)")
            }
            try FFmpegError.check(sws_init_context(context, nil, nil), "sws_init_context(\(what))")
            try Self.setColorspaceDetails(context, from: .sources, range: key.range, to: output, range: .limited,
                                          what: what)
        } catch {
            sws_freeContext(context)
            throw error
        }
        self.key = key
        pointer = context
    }

    deinit { sws_freeContext(pointer) }

    /// Tells `context` the matrices and ranges on both sides. With different matrices libswscale converts through
    /// RGB (a second pass); with equal ones it only maps the range. The corresponding C function is
    /// `sws_setColorspaceDetails`.
    ///
    /// libswscale answers −1 when the matrices are equal and it has nothing to rebuild for YUV to YUV (the ranges
    /// were taken anyway), so only a failure with different matrices is an error.
    static func setColorspaceDetails(_ context: OpaquePointer, from source: VideoColorimetry, range sourceRange: ColorRange,
                                     to target: VideoColorimetry, range targetRange: ColorRange, what: String) throws {
        let result = sws_setColorspaceDetails(context, sws_getCoefficients(source.swsCoefficients), sourceRange.swsRange,
                                              sws_getCoefficients(target.swsCoefficients), targetRange.swsRange,
                                              0, 1 << 16, 1 << 16)
        if result < 0 && source != target {
            throw FFmpegError("sws_setColorspaceDetails(\(what), \(source) → \(target))",
                              code: result == -1 ? pausecam_averror(EINVAL) : result)
        }
    }
}
