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
    struct Shape: Equatable {
        /// Where the pictures come from.
        enum Source: Equatable {
            /// A canvas: yuv420p, limited range, in `colorimetry`.
            case canvas
            /// A decoded JPEG (full range, BT.601) in this planar layout, scaled.
            case decoded(PixelFormat)
            /// A decoded JPEG's own frame in this format, encoded as it is.
            case asItIs(AVPixelFormat)
        }
        var sourceWidth: Int, sourceHeight: Int
        var colorimetry: VideoColorimetry
        var width: Int, height: Int
        var source: Source = .canvas
    }

    /// The quantiser scale, 2 (best) to 31 (smallest).
    let quantiser: Int32
    private(set) var shape: Shape?
    private(set) var scaler: OpaquePointer?
    private(set) var context: UnsafeMutablePointer<AVCodecContext>?
    private(set) var picture: UnsafeMutablePointer<AVFrame>?
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
        return try send(picture, to: context)
    }

    /// Encodes `frame` (the encoder's size and pixel format) and returns the JPEG's bytes.
    func send(_ frame: UnsafeMutablePointer<AVFrame>, to context: UnsafeMutablePointer<AVCodecContext>) throws -> [UInt8] {
        frame.pointee.quality = context.pointee.global_quality
        frame.pointee.pts = nextPTS
        nextPTS += 1
        try FFmpegError.check(avcodec_send_frame(context, frame), "avcodec_send_frame(mjpeg)")
        try FFmpegError.check(avcodec_receive_packet(context, packet.packet), "avcodec_receive_packet(mjpeg)")
        defer { av_packet_unref(packet.packet) }
        return Array(UnsafeBufferPointer(start: packet.packet.pointee.data, count: Int(packet.packet.pointee.size)))
    }

    /// Builds the scaler, the encoder and the output frame for `wanted`, freeing the old ones first (a picture
    /// encoded as it is needs neither scaler nor output frame).
    func rebuild(for wanted: Shape) throws {
        release()
        let what = "\(wanted.sourceWidth)x\(wanted.sourceHeight) → \(wanted.width)x\(wanted.height) jpeg"
        var encoderFormat = AV_PIX_FMT_YUVJ420P
        switch wanted.source {
        case .asItIs(let format):
            encoderFormat = format
        case .decoded(let format):
            // Full range in and out, one matrix: only the size and the chroma layout change.
            let (sourceFormat, _) = CanvasScaler.ffmpegFormat(format)
            guard let made = sws_getContext(Int32(wanted.sourceWidth), Int32(wanted.sourceHeight), sourceFormat,
                                            Int32(wanted.width), Int32(wanted.height), AV_PIX_FMT_YUV420P,
                                            SWS_BILINEAR, nil, nil, nil)
            else { throw FFmpegError("sws_getContext(\(what))", code: pausecam_averror(EINVAL)) }
            scaler = made
            picture = try Self.outputFrame(wanted, what: what)
        case .canvas:
            try buildCanvasScaler(for: wanted, what: what)
        }
        try openEncoder(for: wanted, format: encoderFormat, what: what)
        shape = wanted
    }

    /// A yuvj420p frame of the JPEG's size for the scaler to write into.
    private static func outputFrame(_ wanted: Shape, what: String) throws -> UnsafeMutablePointer<AVFrame> {
        let frame = try FFmpegFrame.allocate(what)
        frame.pointee.width = Int32(wanted.width)
        frame.pointee.height = Int32(wanted.height)
        frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        do {
            try FFmpegError.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer(\(what))")
        } catch {
            FFmpegFrame.release(frame)
            throw error
        }
        return frame
    }

    /// The scaler from a limited-range canvas in its own standard to the JPEG's full-range BT.601, and its frame.
    private func buildCanvasScaler(for wanted: Shape, what: String) throws {
        picture = try Self.outputFrame(wanted, what: what)
        guard let made = sws_getContext(Int32(wanted.sourceWidth), Int32(wanted.sourceHeight), AV_PIX_FMT_YUV420P,
                                        Int32(wanted.width), Int32(wanted.height), AV_PIX_FMT_YUVJ420P, SWS_BICUBIC,
                                        nil, nil, nil)
        else { throw FFmpegError("sws_getContext(\(what))", code: pausecam_averror(EINVAL)) }
        scaler = made
        // The canvas is limited range in its own standard; a JPEG is BT.601 full range (JFIF).
        try ScalerContext.setColorspaceDetails(made, from: wanted.colorimetry, range: .limited, to: .bt601,
                                               range: .full, what: what)
    }

    /// Opens the `mjpeg` encoder for `wanted`'s size in `format`.
    private func openEncoder(for wanted: Shape, format: AVPixelFormat, what: String) throws {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("avcodec_find_encoder(mjpeg)", code: pausecam_averror(ENOSYS))
        }
        guard let encoder = avcodec_alloc_context3(codec) else {
            throw FFmpegError("avcodec_alloc_context3(mjpeg)", code: pausecam_averror(ENOMEM))
        }
        context = encoder
        encoder.pointee.width = Int32(wanted.width)
        encoder.pointee.height = Int32(wanted.height)
        encoder.pointee.pix_fmt = format
        encoder.pointee.time_base = AVRational(num: 1, den: 25)
        encoder.pointee.flags |= AV_CODEC_FLAG_QSCALE
        encoder.pointee.global_quality = quantiser * FF_QP2LAMBDA
        try FFmpegError.check(avcodec_open2(encoder, codec, nil), "avcodec_open2(mjpeg \(what))")
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

extension JPEGEncoder {
    /// The JPEG of `crop` (in the picture's own pixels; nil: all of it) of a decoded JPEG, at `width`×`height`
    /// (made even), without going through a canvas: a decoded JPEG is already full-range BT.601, what JFIF means, so
    /// nothing changes its levels or matrix. When the picture is exactly that size and uncropped (a camera's JPEG
    /// decoded at a reduced size that fits, `MJPEGDecoder(reduction:)`), its frame goes to the encoder as it is, in
    /// its own 4:2:0 or 4:2:2; otherwise libswscale scales the crop to 4:2:0. The picture stays the caller's.
    func encode(decoded source: DecodedPicture, crop requested: PixelRect?, width: Int, height: Int) throws -> [UInt8] {
        var crop = requested ?? PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        crop.x = max(0, min(crop.x, source.width - 2)) & ~1
        crop.y = max(0, min(crop.y, source.height - 2)) & ~1
        crop.width = max(2, min(crop.width, source.width - crop.x))
        crop.height = max(2, min(crop.height, source.height - crop.y))
        let frameFormat = AVPixelFormat(rawValue: source.ffmpegFrame.pointee.format)
        let asItIs = crop == PixelRect(x: 0, y: 0, width: source.width, height: source.height)
            && source.width == width && source.height == height
            && (frameFormat == AV_PIX_FMT_YUVJ420P || frameFormat == AV_PIX_FMT_YUVJ422P)
        let wanted = Shape(sourceWidth: crop.width, sourceHeight: crop.height, colorimetry: .bt601,
                           width: max(2, width & ~1), height: max(2, height & ~1),
                           source: asItIs ? .asItIs(frameFormat) : .decoded(source.format))
        if wanted != shape { try rebuild(for: wanted) }
        guard let context else { preconditionFailure("JPEGEncoder rebuilt without a codec context") }
        let frame: UnsafeMutablePointer<AVFrame>
        if asItIs {
            frame = source.ffmpegFrame
        } else {
            guard let scaler, let picture else { preconditionFailure("JPEGEncoder rebuilt without a scaler") }
            try FFmpegError.check(av_frame_make_writable(picture), "av_frame_make_writable(jpeg picture)")
            let offsets = CanvasScaler.cropOffsets(format: source.format, strides: source.strides, crop: crop)
            var sourcePointers: [UnsafePointer<UInt8>?] = zip(source.bases, offsets).map { base, offset in base.map { $0 + offset } } + [nil]
            var sourceStrides = source.strides.map { Int32($0) } + [0]
            let (data, strides) = CanvasScaler.planes(of: picture)
            var targetPointers: [UnsafeMutablePointer<UInt8>?] = data + [nil]
            var targetStrides = strides.map { Int32($0) } + [0]
            let result = sws_scale(scaler, &sourcePointers, &sourceStrides, 0, Int32(crop.height), &targetPointers,
                                   &targetStrides)
            try FFmpegError.check(result, "sws_scale(decoded jpeg \(crop.width)x\(crop.height) → \(width)x\(height))")
            frame = picture
        }
        return try send(frame, to: context)
    }
}
