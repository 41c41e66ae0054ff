import CFFmpeg
import PauseCamCore

/// H.264 through libavcodec's `libx264`: preset, CRF and GOP from the movie settings, keyframes on request.
///
/// Colour: the stream is tagged limited range with the canvas's BT.601 matrix (SMPTE 170M, what `CanvasScaler`
/// converts every frame's range to), and BT.709 primaries and transfer from 720 lines up (SMPTE 170M below); the
/// tags travel in the H.264 VUI and the container, so players need not guess from the size.
///
/// Timestamps: file times (exact `MediaTime`) are rescaled to the encoder's 1/90000 time base with rounding, then
/// kept strictly increasing (a tie after rounding moves up one tick), so the file's frame times equal the given
/// times within 1/90000 s. Owns its `AVCodecContext`; each packet is handed to `emit` as an `EncodedPacket`, whose
/// taker decides where it goes (the encoder knows no muxer).
final class VideoEncoder {
    /// The encoder's (and the video stream's requested) time base.
    static let timescale: Int32 = 90_000
    let context: UnsafeMutablePointer<AVCodecContext>
    private let packetBox = FFmpegPacketBox()
    private var lastPTS: Int64?
    private(set) var framesEncoded = 0
    /// One frame at the nominal rate, in 1/90000: the duration of packets x264 leaves without one (the last
    /// frame's would otherwise be 0, and a muxer may drop or shorten it).
    private let nominalFrameDuration: Int64

    /// Opens libx264 for a `settings.width`×`settings.height` yuv420p canvas. `globalHeader` when the container
    /// wants SPS/PPS in the stream header (mov, mp4, mkv all do).
    ///
    /// The context is built and opened in a local and stored only once it is open: a failure frees it here, before
    /// `self` is fully initialized, so `deinit` (which frees `context`) never runs for it — freeing it in `init`
    /// after storing it would free it twice.
    init(settings: MovieSettings, globalHeader: Bool) throws {
        guard let codec = avcodec_find_encoder_by_name("libx264") else {
            throw FFmpegError("avcodec_find_encoder_by_name(libx264): this FFmpeg has no libx264; install "
                              + "libavcodec with x264 (Debian: libavcodec59)", code: pausecam_averror(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError("avcodec_alloc_context3(libx264)", code: pausecam_averror(ENOMEM))
        }
        context.pointee.width = Int32(settings.width & ~1)
        context.pointee.height = Int32(settings.height & ~1)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: Self.timescale)
        context.pointee.framerate = AVRational(num: settings.rate.numerator, den: settings.rate.denominator)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        VideoColorimetry(height: Int(context.pointee.height)).tag(context)
        context.pointee.gop_size = Int32(clamping: Self.gopSize(settings))
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var options: OpaquePointer?
        av_dict_set(&options, "preset", settings.preset, 0)
        av_dict_set(&options, "crf", String(settings.crf), 0)
        av_dict_set(&options, "forced-idr", "1", 0)
        defer { av_dict_free(&options) }
        let opened = avcodec_open2(context, codec, &options)
        if opened < 0 {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&owned)
            throw FFmpegError("avcodec_open2(libx264 preset \(settings.preset) crf \(settings.crf))", code: opened)
        }
        nominalFrameDuration = (try? settings.rate.frameDuration.rescaled(to: Self.timescale, rounding: .nearest).value)
            ?? 3000
        self.context = context
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Frames between forced keyframes: the keyframe interval times the frame rate, at least 1.
    static func gopSize(_ settings: MovieSettings) -> Int64 {
        let interval = settings.keyframeInterval
        let frames = (interval.value * Int64(settings.rate.numerator))
            / (Int64(interval.timescale) * Int64(settings.rate.denominator))
        return max(1, frames)
    }

    /// The encoder's timestamp for `fileTime`: rounded to 1/90000 and kept strictly increasing.
    func presentationTimestamp(for fileTime: MediaTime) -> Int64 {
        var pts = (try? fileTime.rescaled(to: Self.timescale, rounding: .nearest).value) ?? (lastPTS ?? 0) + 1
        if let lastPTS, pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        return pts
    }

    /// Encodes a canvas frame (the caller keeps ownership of `picture`) and hands out every packet ready.
    func encode(_ picture: UnsafeMutablePointer<AVFrame>, at fileTime: MediaTime, keyframe: Bool,
                emit: (EncodedPacket) throws -> Void) throws {
        picture.pointee.pts = presentationTimestamp(for: fileTime)
        picture.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        try FFmpegError.check(avcodec_send_frame(context, picture), "avcodec_send_frame(libx264)")
        framesEncoded += 1
        try drain(emit: emit)
    }

    /// Signals the end of the stream and hands out the delayed packets.
    func flush(emit: (EncodedPacket) throws -> Void) throws {
        try H264PacketDrain.flush(context, through: packetBox.packet, durationWhenMissing: nominalFrameDuration,
                                  emit: emit)
    }

    private func drain(emit: (EncodedPacket) throws -> Void) throws {
        try H264PacketDrain.drain(context, through: packetBox.packet, durationWhenMissing: nominalFrameDuration,
                                  emit: emit)
    }
}
