import CFFmpeg
import PauseCamCore

/// Reads a movie file's video stream frame after frame for a `FileLens`: libavformat demuxes; an MJPEG packet is
/// handed on undecoded as a `jpeg` frame — the very path a UVC camera's MJPEG buffers take, decoded by the movie
/// writer only if it reaches the movie — and any other codec is decoded by libavcodec into planar YUV.
///
/// One reader serves one pass over the file, from one thread at a time: made where the lens is wired, then handed
/// to the lens's decode thread, which alone uses it (hence `@unchecked Sendable`: the hand-over is the only sharing). It owns its
/// format context, packet, codec context, frame and scaler, built in locals and kept only when every step
/// succeeded; `deinit` frees them.
/// Unchecked Sendable: handed once to the decode thread, which alone uses it; the C objects are not thread-safe.
final class FileLensReader: @unchecked Sendable {
    /// The file as the rig names it, for messages.
    let path: String
    /// What the file will deliver: its picture size, its own frame rate, and the planar layout its frames decode to.
    let format: CameraFormat
    /// True when the video stream is MJPEG (every frame a JPEG), handed on as compressed `jpeg` frames.
    let isMJPEG: Bool
    /// How many frames the file holds at its own rate (from the stream's frame count or duration); `nil` when the
    /// container says neither. A looping lens takes its position modulo this.
    let frameCount: Int64?

    private var input: UnsafeMutablePointer<AVFormatContext>?
    private let streamIndex: Int32
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var converted: UnsafeMutablePointer<AVFrame>?
    private var scaler: OpaquePointer?
    /// True once the demuxer reached the end and the decoder was told to drain.
    private var draining = false
    /// After `seek(toFrame:)`: pictures stamped before this (in the stream's time base) are read and dropped.
    private var discardBefore: Int64?

    /// Opens `path` and its first video stream's decoder; throws a `FileLensError` naming the path when the file
    /// cannot be read, has no video, no frame rate, or a codec FFmpeg cannot decode. The corresponding C functions
    /// are `avformat_open_input`, `avformat_find_stream_info`, `av_find_best_stream`, `avcodec_open2`.
    init(path: String) throws {
        FFmpegLogLevel.quiet()
        self.path = path
        // The rig check refuses these already; a file swapped for a named pipe since then must not hang the open.
        if let problem = MovieFileCheck.problem(at: path) {
            throw FileLensError(path: path, problem: problem,
                                fix: "a file lens replays a movie file: give the path of one")
        }
        var opened: UnsafeMutablePointer<AVFormatContext>?
        let openCode = avformat_open_input(&opened, path, nil, nil)
        guard openCode >= 0, let opened else {
            throw FileLensError(path: path, problem: FFmpegError("avformat_open_input", code: openCode).message,
                                fix: "check the path (relative paths start at the rig file's folder) and that the file is readable")
        }
        var owned: UnsafeMutablePointer<AVFormatContext>? = opened
        do {
            try FFmpegError.check(avformat_find_stream_info(opened, nil), "avformat_find_stream_info")
            let index = av_find_best_stream(opened, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
            guard index >= 0, let stream = opened.pointee.streams[Int(index)] else {
                throw FileLensError(path: path, problem: "has no video stream", fix: "give a movie with a picture")
            }
            let parameters = stream.pointee.codecpar.pointee
            let rate = [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate].first { $0.num > 0 && $0.den > 0 }
            guard let rate, parameters.width > 0, parameters.height > 0 else {
                throw FileLensError(path: path, problem: "has no frame rate or picture size",
                                    fix: "re-encode it at a constant rate, e.g. ffmpeg -i IN -r 30 OUT.mov")
            }
            let mjpeg = parameters.codec_id == AV_CODEC_ID_MJPEG
            let layout: PixelFormat = mjpeg ? .jpeg : .yuv420p
            if !mjpeg {
                context = try Self.openDecoder(parameters: stream.pointee.codecpar, path: path)
                frame = try FFmpegFrame.allocate("file lens \(path)")
                converted = try FFmpegFrame.allocate("file lens \(path) yuv420p")
            }
            guard let packet = av_packet_alloc() else {
                throw FFmpegError("av_packet_alloc", code: pausecam_averror(ENOMEM))
            }
            self.packet = packet
            streamIndex = index
            isMJPEG = mjpeg
            frameCount = Self.frameCount(of: stream.pointee, input: opened.pointee, rate: rate)
            format = CameraFormat(width: Int(parameters.width), height: Int(parameters.height),
                                  rate: FrameRate(rate.num, rate.den), pixelFormat: layout)
            input = opened
            owned = nil
        } catch let error as FFmpegError {
            avformat_close_input(&owned)
            throw FileLensError(path: path, problem: error.description, fix: "check that FFmpeg can play the file")
        } catch {
            avformat_close_input(&owned)
            throw error
        }
    }

    deinit {
        sws_freeContext(scaler)
        av_frame_free(&converted)
        av_frame_free(&frame)
        avcodec_free_context(&context)
        av_packet_free(&packet)
        avformat_close_input(&input)
    }

    /// A decoder for a non-MJPEG stream, opened; the caller owns it. The corresponding C functions are
    /// `avcodec_find_decoder`, `avcodec_alloc_context3`, `avcodec_parameters_to_context`, `avcodec_open2`.
    private static func openDecoder(parameters: UnsafeMutablePointer<AVCodecParameters>,
                                    path: String) throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw FileLensError(path: path, problem: "uses codec \(name), which this FFmpeg cannot decode",
                                fix: "re-encode it, e.g. ffmpeg -i IN -c:v mjpeg OUT.mov")
        }
        var context = avcodec_alloc_context3(codec)
        guard let created = context else { throw FFmpegError("avcodec_alloc_context3", code: pausecam_averror(ENOMEM)) }
        do {
            try FFmpegError.check(avcodec_parameters_to_context(created, parameters), "avcodec_parameters_to_context")
            try FFmpegError.check(avcodec_open2(created, codec, nil), "avcodec_open2")
        } catch {
            avcodec_free_context(&context)
            throw error
        }
        return created
    }

    /// The next picture of the file stamped `pts` for `lens`, or `nil` at the end of the file. Throws for a read
    /// or decode error (a truncated file). The corresponding C functions are `av_read_frame`,
    /// `avcodec_send_packet`, `avcodec_receive_frame`.
    func nextFrame(pts: MediaTime, lens: String) throws -> VideoFrame? {
        while true {
            if isMJPEG {
                guard let (bytes, stamp) = try nextPacketBytes() else { return nil }
                if let first = discardBefore, stamp != pausecam_av_nopts_value(), stamp < first { continue }
                discardBefore = nil
                guard bytes.count > 2 else { continue }
                return VideoFrame(pts: pts, width: format.width, height: format.height, format: .jpeg,
                                  planes: [Plane(bytes: bytes, stride: 0)], lens: lens, range: .full)
            }
            let code = avcodec_receive_frame(context, frame)
            if code >= 0 {
                defer { av_frame_unref(frame) }
                let stamp = frame!.pointee.best_effort_timestamp
                if let first = discardBefore, stamp != pausecam_av_nopts_value(), stamp < first { continue }
                discardBefore = nil
                return try picture(pts: pts, lens: lens)
            }
            if code == pausecam_averror_eof() { return nil }
            guard code == pausecam_averror_eagain() else {
                throw FileLensError(path: path, problem: FFmpegError("avcodec_receive_frame", code: code).description,
                                    fix: "check that FFmpeg can play the file")
            }
            if draining { return nil }
            if try readVideoPacket() {
                let sent = avcodec_send_packet(context, packet)
                av_packet_unref(packet)
                if sent < 0 && sent != pausecam_averror_eagain() {
                    throw FileLensError(path: path, problem: FFmpegError("avcodec_send_packet", code: sent).description,
                                        fix: "check that FFmpeg can play the file")
                }
            } else {
                draining = true
                _ = avcodec_send_packet(context, nil)
            }
        }
    }

    /// Reads the next packet of the video stream into `packet`; `nil` at the end of the file.
    private func readVideoPacket() throws -> Bool {
        while true {
            let code = av_read_frame(input, packet)
            if code == pausecam_averror_eof() { return false }
            guard code >= 0 else {
                throw FileLensError(path: path, problem: FFmpegError("av_read_frame", code: code).description,
                                    fix: "check that the file is complete")
            }
            if packet!.pointee.stream_index == streamIndex { return true }
            av_packet_unref(packet)
        }
    }

    /// The bytes of the next video packet (one JPEG for an MJPEG stream) and its presentation time in the stream's
    /// time base; `nil` at the end of the file.
    private func nextPacketBytes() throws -> ([UInt8], Int64)? {
        guard try readVideoPacket() else { return nil }
        defer { av_packet_unref(packet) }
        let p = packet!.pointee
        guard let data = p.data, p.size > 0 else { return ([], p.pts) }
        return (Array(UnsafeBufferPointer(start: data, count: Int(p.size))), p.pts)
    }

    /// Moves the reader so that its next picture is the file's frame `index` (0 is the first; counted at the
    /// file's own rate): a seek to the keyframe at or before it, then the pictures before it are read and dropped
    /// (every MJPEG frame is a keyframe, so there the seek lands on it). Past the end of the file, the next
    /// `nextFrame` returns `nil`. Throws nothing for a seek the demuxer refuses: the reader then reads from where
    /// it is and drops up to the frame. The corresponding C functions are `av_seek_frame`, `avcodec_flush_buffers`.
    func seek(toFrame index: Int64) {
        guard index > 0, let input, let stream = input.pointee.streams[Int(streamIndex)] else { return }
        let timeBase = stream.pointee.time_base
        let start = stream.pointee.start_time == pausecam_av_nopts_value() ? 0 : stream.pointee.start_time
        let frameDuration = AVRational(num: format.rate.denominator, den: format.rate.numerator)
        let target = start + av_rescale_q(index, frameDuration, timeBase)
        // Half a frame of tolerance: a frame stamped a tick early (rounding in the muxer) is still that frame.
        let half = av_rescale_q(1, frameDuration, timeBase) / 2
        if av_seek_frame(input, streamIndex, target, AVSEEK_FLAG_BACKWARD) >= 0, let context {
            avcodec_flush_buffers(context)
        }
        draining = false
        discardBefore = target - half
    }

    /// The number of frames of `stream` at `rate`: `nb_frames` when the container counts them, else the stream's
    /// (or the file's) duration in frames, rounded to the nearest.
    private static func frameCount(of stream: AVStream, input: AVFormatContext, rate: AVRational) -> Int64? {
        if stream.nb_frames > 0 { return stream.nb_frames }
        let frameDuration = AVRational(num: rate.den, den: rate.num)
        if stream.duration > 0 && stream.duration != pausecam_av_nopts_value() {
            return av_rescale_q_rnd(stream.duration, stream.time_base, frameDuration, AV_ROUND_NEAR_INF)
        }
        if input.duration > 0 && input.duration != pausecam_av_nopts_value() {
            return av_rescale_q_rnd(input.duration, AVRational(num: 1, den: AV_TIME_BASE), frameDuration,
                                    AV_ROUND_NEAR_INF)
        }
        return nil
    }

    /// Copies the decoded picture out as yuv420p: as is when it already is, through libswscale otherwise (which
    /// maps `yuvj` full range to limited on the way). The corresponding C functions are `sws_getCachedContext`,
    /// `av_frame_get_buffer`, `sws_scale_frame`.
    private func picture(pts: MediaTime, lens: String) throws -> VideoFrame {
        var source = frame!
        let width = Int(source.pointee.width), height = Int(source.pointee.height)
        let sourceFormat = AVPixelFormat(rawValue: source.pointee.format)
        var range: ColorRange = source.pointee.color_range == AVCOL_RANGE_JPEG ? .full : .limited
        if sourceFormat != AV_PIX_FMT_YUV420P {
            scaler = sws_getCachedContext(scaler, Int32(width), Int32(height), sourceFormat, Int32(width),
                                          Int32(height), AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
            guard scaler != nil else {
                throw FileLensError(path: path, problem: "cannot convert \(width)x\(height) "
                                    + (av_get_pix_fmt_name(sourceFormat).map { String(cString: $0) } ?? "?")
                                    + " to yuv420p", fix: "re-encode it, e.g. ffmpeg -i IN -c:v mjpeg OUT.mov")
            }
            av_frame_unref(converted)
            converted!.pointee.width = Int32(width)
            converted!.pointee.height = Int32(height)
            converted!.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            try FFmpegError.check(av_frame_get_buffer(converted, 0), "av_frame_get_buffer(file lens)")
            try FFmpegError.check(sws_scale_frame(scaler, converted, source), "sws_scale_frame(file lens)")
            if sourceFormat == AV_PIX_FMT_YUVJ420P || sourceFormat == AV_PIX_FMT_YUVJ422P
                || sourceFormat == AV_PIX_FMT_YUVJ444P {
                range = .limited
            }
            source = converted!
        }
        let f = source.pointee
        let pointers = withUnsafeBytes(of: f.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: f.linesize) { Array($0.bindMemory(to: Int32.self)) }
        var planes: [Plane] = []
        for index in 0..<3 {
            let stride = Int(strides[index])
            let rows = index == 0 ? height : (height + 1) / 2
            guard let base = pointers[index], stride > 0 else {
                throw FFmpegError("file lens \(path): missing plane \(index)", code: pausecam_averror(EINVAL))
            }
            planes.append(Plane(bytes: Array(UnsafeBufferPointer(start: base, count: stride * rows)), stride: stride))
        }
        return VideoFrame(pts: pts, width: width, height: height, format: .yuv420p, planes: planes, lens: lens,
                          range: range)
    }
}
