import CFFmpeg
import PauseCamCore

/// Decodes a webcam's MJPEG frames with libavcodec's `mjpeg` decoder into planar YUV frames.
///
/// Webcam JPEGs decode to `yuvj422p` or `yuvj420p`: full range. Their planes are handed on as `yuv422p`/`yuv420p`
/// with `range: .full`, untouched: the encoder's scaler maps full to limited range in the pass it makes anyway, so
/// no separate conversion (~4 ms per 1080p frame) is spent here, and the levels stay right. Cameras hand out their
/// JPEGs undecoded (`PixelFormat.jpeg`); the one decoder of a `CanvasScaler` decodes the pictures that reach the
/// movie, on the scaler's thread only. It owns its codec context, packet and frame.
/// Unchecked Sendable: owns libavcodec objects used by one thread at a time (the scaler's).
public final class MJPEGDecoder: @unchecked Sendable {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?

    /// Opens the decoder; `reduction` 1 to 3 decodes every picture at a half, a quarter or an eighth of its size
    /// (libavcodec's `lowres`: the reduction happens in the inverse DCT, so a small picture costs less than a full
    /// decode and a scale; what the monitor's pictures use). The corresponding C functions are
    /// `avcodec_find_decoder`, `avcodec_alloc_context3`, `avcodec_open2`.
    public init(reduction: Int = 0) throws {
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("avcodec_find_decoder(mjpeg)", code: pausecam_averror(ENOSYS))
        }
        context = avcodec_alloc_context3(codec)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard context != nil, packet != nil, frame != nil else {
            throw FFmpegError("avcodec_alloc_context3(mjpeg)", code: pausecam_averror(ENOMEM))
        }
        context!.pointee.lowres = Int32(min(max(0, reduction), Int(codec.pointee.max_lowres)))
        try FFmpegError.check(avcodec_open2(context, codec, nil), "avcodec_open2(mjpeg)")
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&context)
    }

    /// Decodes one JPEG (the bytes of one V4L2 buffer or MJPEG packet) into a frame stamped `pts` for `lens`, its
    /// planes copied into the frame. Returns `nil` when the decoder produced no picture; throws `FFmpegError` for a
    /// corrupt JPEG or an unsupported subsampling.
    public func decode(_ jpeg: [UInt8], pts: MediaTime, lens: String) throws -> VideoFrame? {
        try decodePicture(jpeg)?.videoFrame(pts: pts, lens: lens)
    }

    /// Decodes one JPEG into a picture that stays in libavcodec's buffers (no copy: what the canvas scaler draws
    /// from). Returns `nil` when the decoder produced no picture; throws as `decode` does.
    func decodePicture(_ jpeg: [UInt8]) throws -> DecodedPicture? {
        guard !jpeg.isEmpty else { return nil }
        av_packet_unref(packet)
        try FFmpegError.check(av_new_packet(packet, Int32(jpeg.count)), "av_new_packet")
        jpeg.withUnsafeBytes { source in
            packet!.pointee.data.update(from: source.bindMemory(to: UInt8.self).baseAddress!, count: jpeg.count)
        }
        try FFmpegError.check(avcodec_send_packet(context, packet), "avcodec_send_packet(mjpeg)")
        let code = avcodec_receive_frame(context, frame)
        if code == pausecam_averror_eagain() { return nil }
        try FFmpegError.check(code, "avcodec_receive_frame(mjpeg)")
        defer { av_frame_unref(frame) }
        return try DecodedPicture(takingFrom: frame!)
    }

    /// The range of a decoded picture: full when FFmpeg says so (`AVCOL_RANGE_JPEG`) or the format is a `yuvj` one
    /// (which means full range whatever the tag), limited otherwise (a JPEG marked as ITU-R BT.601 coded).
    static func range(format: AVPixelFormat, tag: AVColorRange) -> ColorRange {
        switch format {
        case AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ420P: return .full
        default: return tag == AVCOL_RANGE_JPEG ? .full : .limited
        }
    }
}

/// A decoded JPEG, still in the decoder's reference-counted buffers: its own reference to them (the decoder takes
/// new buffers from its pool for the next picture, and these go back to the pool when this is freed), so nothing is
/// copied. Planar 4:2:2 or 4:2:0, full or limited range. Used on one thread at a time.
/// Unchecked Sendable: owns an AVFrame read by one thread at a time after the decoder handed it over.
final class DecodedPicture: @unchecked Sendable {
    private var frame: UnsafeMutablePointer<AVFrame>?
    let width: Int
    let height: Int
    let format: PixelFormat
    let range: ColorRange
    /// The three planes' first bytes and strides.
    let bases: [UnsafePointer<UInt8>?]
    let strides: [Int]

    /// Takes over the picture in `decoded` (which is left empty), or throws for a pixel format PauseCam cannot use.
    init(takingFrom decoded: UnsafeMutablePointer<AVFrame>) throws {
        let f = decoded.pointee
        width = Int(f.width)
        height = Int(f.height)
        switch AVPixelFormat(rawValue: f.format) {
        case AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUV422P: format = .yuv422p
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUV420P: format = .yuv420p
        default:
            let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: f.format)).map { String(cString: $0) } ?? "?"
            throw FFmpegError("mjpeg decoder: unsupported pixel format \(name)", code: pausecam_averror(ENOSYS))
        }
        range = MJPEGDecoder.range(format: AVPixelFormat(rawValue: f.format), tag: f.color_range)
        let pointers = withUnsafeBytes(of: f.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let lineSizes = withUnsafeBytes(of: f.linesize) { Array($0.bindMemory(to: Int32.self)) }
        for index in 0..<3 where pointers[index] == nil || lineSizes[index] <= 0 {
            throw FFmpegError("mjpeg decoder: missing plane \(index)", code: pausecam_averror(EINVAL))
        }
        guard let owned = av_frame_alloc() else {
            throw FFmpegError("av_frame_alloc(decoded JPEG)", code: pausecam_averror(ENOMEM))
        }
        av_frame_move_ref(owned, decoded)
        frame = owned
        bases = (0..<3).map { UnsafePointer(pointers[$0]) }
        strides = (0..<3).map { Int(lineSizes[$0]) }
    }

    deinit {
        av_frame_free(&frame)
    }

    /// The decoded frame itself, still this picture's (for an encoder that takes it as it is); `yuvj420p` or
    /// `yuvj422p` for a webcam's JPEG.
    var ffmpegFrame: UnsafeMutablePointer<AVFrame> { frame! }

    /// Rows in plane `index`.
    func rows(ofPlane index: Int) -> Int { index == 0 || format == .yuv422p ? height : (height + 1) / 2 }

    /// A frame holding a copy of the planes, stamped `pts` for `lens`.
    func videoFrame(pts: MediaTime, lens: String) -> VideoFrame {
        let planes = (0..<3).map { index in
            Plane(bytes: Array(UnsafeBufferPointer(start: bases[index], count: strides[index] * rows(ofPlane: index))),
                  stride: strides[index])
        }
        return VideoFrame(pts: pts, width: width, height: height, format: format, planes: planes, lens: lens,
                          range: range)
    }
}
