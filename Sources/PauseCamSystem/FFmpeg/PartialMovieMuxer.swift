import CFFmpeg
import PauseCamCore

/// Writes the crash-safe `NAME.ext.partial` while recording.
///
/// For mov/mp4 this is fragmented output (`movflags=+frag_keyframe+empty_moov+default_base_moof`,
/// `frag_duration=500000`): the muxer cuts a fragment at every keyframe and at least every half second whatever the
/// GOP, and the I/O buffer is flushed after each packet, so a killed process leaves a file that ffprobe opens with
/// everything but the last fragment. mkv is written plainly (a cut Matroska file stays readable). Chapters are not
/// written here: fragmented files lose chapters added after the header, so `ChapterRemuxer` adds them at the end.
///
/// Owns the `AVFormatContext` and its `AVIOContext`.
final class PartialMovieMuxer {
    let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    private var headerWritten = false
    private var closed = false

    /// The FFmpeg muxer name for a container.
    static func formatName(_ container: MovieSettings.Container) -> String {
        switch container {
        case .mov: return "mov"
        case .mp4: return "mp4"
        case .mkv: return "matroska"
        }
    }

    /// Allocates the output context (so encoders can ask whether it wants global headers); `open` writes the header.
    init(path: String, container: MovieSettings.Container) throws {
        var created: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&created, nil, Self.formatName(container), path),
                              "avformat_alloc_output_context2(\(path))")
        guard let created else { throw FFmpegError("avformat_alloc_output_context2(\(path))", code: pausecam_averror(ENOMEM)) }
        context = created
        self.path = path
        // The AAC priming packet sits at -1024 samples. The default shift (make non-negative) moves every stream,
        // and the fragmented mov writer then stretches the first video sample over the gap, so frame times would
        // no longer be the given file times. Disabled, the fragments keep video exact and only audio's priming is
        // pulled to 0; `ChapterRemuxer` puts it back (the final file's edit list hides it again).
        context.pointee.avoid_negative_ts = AVFMT_AVOID_NEG_TS_DISABLED
        // The interleaver holds packets of one stream while it waits for the other; if the microphone stalls it
        // would hold 10 s of video (the default) out of the file. One second keeps the crash promise.
        context.pointee.max_interleave_delta = 1_000_000
    }

    deinit {
        if !closed { close() }
        avformat_free_context(context)
    }

    /// True when the container wants codec headers out of band (`AV_CODEC_FLAG_GLOBAL_HEADER`).
    var wantsGlobalHeader: Bool { (context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0 }

    /// Adds a stream described by an opened encoder; returns its index.
    func addStream(from encoder: UnsafeMutablePointer<AVCodecContext>) throws -> Int32 {
        guard let stream = avformat_new_stream(context, nil) else {
            throw FFmpegError("avformat_new_stream(\(path))", code: pausecam_averror(ENOMEM))
        }
        try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder),
                              "avcodec_parameters_from_context(\(path))")
        stream.pointee.time_base = encoder.pointee.time_base
        return stream.pointee.index
    }

    /// Adds a stream whose packets come as they are, not from an encoder of ours (the camera's JPEGs):
    /// `describe` fills its codec parameters; its packets' times are in `timeBase`. Returns its index.
    func addStream(timeBase: AVRational, describe: (UnsafeMutablePointer<AVCodecParameters>) -> Void) throws -> Int32 {
        guard let stream = avformat_new_stream(context, nil) else {
            throw FFmpegError("avformat_new_stream(\(path))", code: pausecam_averror(ENOMEM))
        }
        describe(stream.pointee.codecpar)
        stream.pointee.time_base = timeBase
        return stream.pointee.index
    }

    /// Opens the file (the reserved, empty `.partial`) and writes the header. `minimumFragment` (microseconds) keeps
    /// a stream whose every frame is a keyframe from cutting a fragment at each one: its fragments then last about
    /// as long as an H.264 movie's.
    func open(container: MovieSettings.Container, minimumFragment: Int? = nil) throws {
        try FFmpegError.check(avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open(\(path))")
        var options: OpaquePointer?
        if container != .mkv {
            av_dict_set(&options, "movflags", "+frag_keyframe+empty_moov+default_base_moof+skip_trailer", 0)
            av_dict_set(&options, "frag_duration", "500000", 0)
            if let minimumFragment { av_dict_set(&options, "min_frag_duration", String(minimumFragment), 0) }
        }
        defer { av_dict_free(&options) }
        try FFmpegError.check(avformat_write_header(context, &options), "avformat_write_header(\(path))")
        headerWritten = true
    }

    /// Writes one encoder packet (timestamps in `timeBase`) to stream `index`, then flushes the I/O buffer so the
    /// bytes of every finished fragment reach the file.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational, stream index: Int32) throws {
        let stream = context.pointee.streams[Int(index)]!
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        packet.pointee.stream_index = index
        try FFmpegError.check(av_interleaved_write_frame(context, packet), "av_interleaved_write_frame(\(path))")
        avio_flush(context.pointee.pb)
    }

    /// Writes the trailer (the last fragment) and closes the file.
    func finish() throws {
        guard headerWritten, !closed else { return }
        defer { close() }
        try FFmpegError.check(av_write_trailer(context), "av_write_trailer(\(path))")
    }

    /// Closes the file without a trailer beyond what is already written (abort).
    func close() {
        closed = true
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
    }
}
