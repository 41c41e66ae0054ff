import CFFmpeg
import PauseCamCore

/// Turns canvas pictures (yuv420p, limited range, from `CanvasScaler`) into the bytes of JPEG files: libswscale
/// scales each to the JPEG's size and maps it to full-range BT.601 `yuvj420p` (what JFIF means whatever the
/// picture's size), and libavcodec's `mjpeg` encoder compresses it at a fixed quantiser. The clip's thumbnail and
/// the live monitor's pictures both come from here.
///
/// Keeps its scaler, its encoder and its output frame for the next picture of the same sizes and colour standard
/// (the monitor makes up to 15 pictures a second), and builds new ones when they change. Owns every FFmpeg object
/// it holds. Not thread-safe: one encoder per thread.
final class JPEGEncoder {
    /// What the scaler and the encoder are built for.
    private struct Shape: Equatable {
        var sourceWidth: Int, sourceHeight: Int
        var colorimetry: VideoColorimetry
        var width: Int, height: Int
    }

    /// The quantiser scale, 2 (best) to 31 (smallest).
    let quantiser: Int32
    private var shape: Shape?
    private var scaler: OpaquePointer?
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private let packet = FFmpegPacketBox()
    /// The next picture's timestamp: the encoder wants them to rise, nothing else reads them.
    private var nextPTS: Int64 = 0

    /// An encoder at `quantiser` (3 looks like its source; 5 to 8 keep a live picture small).
    init(quantiser: Int32 = 3) {
        self.quantiser = quantiser
    }

    deinit { release() }

    /// The JPEG of `canvas` (yuv420p, limited range, in `colorimetry`) at `width`×`height` (made even). The canvas
    /// stays the caller's; the bytes returned are a copy of the encoder's packet.
    func encode(_ canvas: UnsafeMutablePointer<AVFrame>, colorimetry: VideoColorimetry, width: Int,
                height: Int) throws -> [UInt8] {
        let wanted = Shape(sourceWidth: Int(canvas.pointee.width), sourceHeight: Int(canvas.pointee.height),
                           colorimetry: colorimetry, width: max(2, width & ~1), height: max(2, height & ~1))
        if wanted != shape { try rebuild(for: wanted) }
        guard let scaler, let context, let picture else { preconditionFailure("JPEGEncoder rebuilt without contexts") }
        // The encoder has let go of the last picture (it holds no frame once its packet is out), so this only
        // allocates when someone else still references the buffers.
        try FFmpegError.check(av_frame_make_writable(picture), "av_frame_make_writable(jpeg picture)")
        try FFmpegError.check(sws_scale_frame(scaler, picture, canvas), "sws_scale_frame(jpeg picture)")
        picture.pointee.quality = context.pointee.global_quality
        picture.pointee.pts = nextPTS
        nextPTS += 1
        try FFmpegError.check(avcodec_send_frame(context, picture), "avcodec_send_frame(mjpeg)")
        try FFmpegError.check(avcodec_receive_packet(context, packet.packet), "avcodec_receive_packet(mjpeg)")
        defer { av_packet_unref(packet.packet) }
        return Array(UnsafeBufferPointer(start: packet.packet.pointee.data, count: Int(packet.packet.pointee.size)))
    }

    /// Builds the scaler, the encoder and the output frame for `wanted`, freeing the old ones first.
    private func rebuild(for wanted: Shape) throws {
        release()
        let what = "\(wanted.sourceWidth)x\(wanted.sourceHeight) → \(wanted.width)x\(wanted.height) jpeg"
        let frame = try FFmpegFrame.allocate(what)
        picture = frame
        frame.pointee.width = Int32(wanted.width)
        frame.pointee.height = Int32(wanted.height)
        frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        try FFmpegError.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer(\(what))")

        guard let made = sws_getContext(Int32(wanted.sourceWidth), Int32(wanted.sourceHeight), AV_PIX_FMT_YUV420P,
                                        Int32(wanted.width), Int32(wanted.height), AV_PIX_FMT_YUVJ420P, SWS_BICUBIC,
                                        nil, nil, nil)
        else { throw FFmpegError("sws_getContext(\(what))", code: pausecam_averror(EINVAL)) }
        scaler = made
        // The canvas is limited range in its own standard; a JPEG is BT.601 full range (JFIF).
        try ScalerContext.setColorspaceDetails(made, from: wanted.colorimetry, range: .limited, to: .bt601,
                                               range: .full, what: what)

        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("avcodec_find_encoder(mjpeg)", code: pausecam_averror(ENOSYS))
        }
        guard let encoder = avcodec_alloc_context3(codec) else {
            throw FFmpegError("avcodec_alloc_context3(mjpeg)", code: pausecam_averror(ENOMEM))
        }
        context = encoder
        encoder.pointee.width = Int32(wanted.width)
        encoder.pointee.height = Int32(wanted.height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        encoder.pointee.time_base = AVRational(num: 1, den: 25)
        encoder.pointee.flags |= AV_CODEC_FLAG_QSCALE
        encoder.pointee.global_quality = quantiser * FF_QP2LAMBDA
        try FFmpegError.check(avcodec_open2(encoder, codec, nil), "avcodec_open2(mjpeg \(what))")
        shape = wanted
    }

    /// Frees the scaler, the encoder and the output frame. The corresponding C functions are `sws_freeContext`,
    /// `avcodec_free_context`, `av_frame_free`.
    private func release() {
        shape = nil
        if let scaler { sws_freeContext(scaler) }
        scaler = nil
        avcodec_free_context(&context)
        av_frame_free(&picture)
    }
}
