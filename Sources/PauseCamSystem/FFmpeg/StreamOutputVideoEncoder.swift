import CFFmpeg
import PauseCamCore

/// H.264 for a live destination through libavcodec's `libx264`: CBR-like rate control (bitrate = maxrate, a VBV
/// buffer of one second, so a viewer's player and the site's ingest see a steady rate), a keyframe every 2 s (what
/// streaming sites ask for), no B-frames and x264's zero-latency tuning (the picture leaves as soon as it is
/// encoded). Owns its `AVCodecContext`; packets go to `emit` as `EncodedPacket`s.
final class StreamOutputVideoEncoder {
    /// The encoder's time base.
    static let timescale: Int32 = 90_000
    let context: UnsafeMutablePointer<AVCodecContext>
    private let packetBox = FFmpegPacketBox()
    private var lastPTS: Int64?

    /// Opens libx264 for a `width`×`height` yuv420p picture at `rate`, `bitrate` bits per second, keyframes every
    /// `keyframeInterval`. `globalHeader` when the container wants SPS/PPS in its header (FLV does).
    init(width: Int, height: Int, rate: FrameRate, bitrate: Int, preset: String, keyframeInterval: MediaTime,
         globalHeader: Bool) throws {
        guard let codec = avcodec_find_encoder_by_name("libx264") else {
            throw FFmpegError("avcodec_find_encoder_by_name(libx264)", code: pausecam_averror(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError("avcodec_alloc_context3(libx264)", code: pausecam_averror(ENOMEM))
        }
        context.pointee.width = Int32(width & ~1)
        context.pointee.height = Int32(height & ~1)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: Self.timescale)
        context.pointee.framerate = AVRational(num: rate.numerator, den: rate.denominator)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        VideoColorimetry(height: Int(context.pointee.height)).tag(context)
        let frames = keyframeInterval.value * Int64(rate.numerator)
            / max(1, Int64(keyframeInterval.timescale) * Int64(rate.denominator))
        context.pointee.gop_size = Int32(clamping: max(1, frames))
        context.pointee.keyint_min = context.pointee.gop_size
        context.pointee.max_b_frames = 0
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.rc_max_rate = Int64(bitrate)
        context.pointee.rc_buffer_size = Int32(clamping: bitrate)
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var options: OpaquePointer?
        av_dict_set(&options, "preset", preset, 0)
        av_dict_set(&options, "tune", "zerolatency", 0)
        av_dict_set(&options, "x264-params", "scenecut=0:nal-hrd=cbr", 0)
        defer { av_dict_free(&options) }
        let opened = avcodec_open2(context, codec, &options)
        if opened < 0 {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&owned)
            throw FFmpegError("avcodec_open2(libx264 preset \(preset) \(bitrate) bit/s)", code: opened)
        }
        self.context = context
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Encodes a canvas picture (the caller keeps it) at `time` since the connection's start.
    func encode(_ picture: UnsafeMutablePointer<AVFrame>, at time: MediaTime,
                emit: (EncodedPacket) throws -> Void) throws {
        var pts = (try? time.rescaled(to: Self.timescale, rounding: .nearest).value) ?? (lastPTS ?? 0) + 1
        if let lastPTS, pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        picture.pointee.pts = pts
        picture.pointee.pict_type = AV_PICTURE_TYPE_NONE
        try FFmpegError.check(avcodec_send_frame(context, picture), "avcodec_send_frame(libx264)")
        try drain(emit: emit)
    }

    /// Ends the stream and hands out the delayed packets.
    func flush(emit: (EncodedPacket) throws -> Void) throws {
        try H264PacketDrain.flush(context, through: packetBox.packet, emit: emit)
    }

    private func drain(emit: (EncodedPacket) throws -> Void) throws {
        try H264PacketDrain.drain(context, through: packetBox.packet, emit: emit)
    }
}
