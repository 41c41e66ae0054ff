import CFFmpeg
import Foundation
import PauseCamCore

/// Writes the clip's thumbnail: a frame fitted to the canvas (so it looks like the movie, bars and zoom included),
/// scaled to about 480 pixels wide, JPEG-encoded with FFmpeg's `mjpeg` encoder, and written with `NewFile`: an
/// existing file (or link) is never overwritten, and a write that fails leaves no half-written thumbnail.
struct ThumbnailWriter {
    var canvasWidth: Int
    var canvasHeight: Int
    var thumbnailWidth = 480

    /// Encodes `frame` and writes it at `path`.
    func write(_ frame: VideoFrame, to path: String) throws {
        let canvas = CanvasScaler(width: canvasWidth, height: canvasHeight)
        var picture: UnsafeMutablePointer<AVFrame>? = try canvas.scale(frame)
        defer { av_frame_free(&picture) }
        let width = min(thumbnailWidth, canvas.width) & ~1
        let height = max(2, (canvas.height * width / max(1, canvas.width)) & ~1)

        let small = try FFmpegFrame.allocate("thumbnail")
        defer { FFmpegFrame.release(small) }
        small.pointee.width = Int32(width)
        small.pointee.height = Int32(height)
        small.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        try FFmpegError.check(av_frame_get_buffer(small, 0), "av_frame_get_buffer(thumbnail)")
        guard let scaler = sws_getContext(Int32(canvas.width), Int32(canvas.height), AV_PIX_FMT_YUV420P,
                                          Int32(width), Int32(height), AV_PIX_FMT_YUVJ420P, SWS_BICUBIC, nil, nil, nil)
        else { throw FFmpegError("sws_getContext(thumbnail)", code: pausecam_averror(EINVAL)) }
        defer { sws_freeContext(scaler) }
        // The canvas is limited range; a JPEG is BT.601 full range (JFIF).
        try ScalerContext.setColorspaceDetails(scaler, from: canvas.colorimetry, range: .limited, to: .bt601,
                                               range: .full, what: "thumbnail")
        try FFmpegError.check(sws_scale_frame(scaler, small, picture), "sws_scale_frame(thumbnail)")

        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG),
              let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError("avcodec_find_encoder(mjpeg)", code: pausecam_averror(ENOSYS))
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&owned) }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.time_base = AVRational(num: 1, den: 25)
        context.pointee.flags |= AV_CODEC_FLAG_QSCALE
        context.pointee.global_quality = 3 * FF_QP2LAMBDA
        small.pointee.quality = context.pointee.global_quality
        small.pointee.pts = 0
        try FFmpegError.check(avcodec_open2(context, codec, nil), "avcodec_open2(mjpeg)")
        try FFmpegError.check(avcodec_send_frame(context, small), "avcodec_send_frame(mjpeg)")
        let box = FFmpegPacketBox()
        try FFmpegError.check(avcodec_receive_packet(context, box.packet), "avcodec_receive_packet(mjpeg)")
        defer { av_packet_unref(box.packet) }

        // All or nothing: a write that fails half-way (a full disk) removes the file instead of leaving a torn JPEG.
        try NewFile.write(UnsafeRawBufferPointer(start: box.packet.pointee.data, count: Int(box.packet.pointee.size)),
                          to: path, synchronize: false)
    }
}
