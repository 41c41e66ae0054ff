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
/// A disk that fills up mid-write leaves a torn fragment at the end (part of a `moof` or its `mdat`), which some
/// readers refuse outright. So the muxer keeps the file offset just after the last whole fragment: the fragmented
/// mov writer keeps a fragment's samples in memory and writes its `moof` and `mdat` in one go, so after every packet
/// written and flushed without an error the file ends on a fragment's end. When a write fails, closing cuts the
/// file back to that offset, and the `.partial` holds whole fragments only.
///
/// Owns the `AVFormatContext` and its `AVIOContext`.
final class PartialMovieMuxer {
    let path: String
    let context: UnsafeMutablePointer<AVFormatContext>
    private var headerWritten = false
    private var closed = false
    /// Fragmented mov/mp4 (cut back after a failed write); mkv is not (a cut Matroska file stays readable).
    private var fragmented = false
    /// File offset just after the header or the last whole fragment written.
    private var wholeThrough: Int64?
    /// A write failed: the file may end in a torn fragment until `close` cuts it back.
    private(set) var torn = false
    /// Why the torn end could not be cut off, if it could not: the `.partial` then ends in a torn fragment.
    private(set) var cutBackFailure: String?

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

    /// Names one of a movie's several audio tracks and says whether players start with it (before `open`).
    /// The title goes where each container keeps a track's name: Matroska's `TrackName`; in mov/mp4 the track's
    /// `udta`/`name` (QuickTime, MediaInfo) and its `hdlr` name (the `handler_name` FFmpeg 5.1's reader gives, as
    /// it does not read `name` back). The default track is the one enabled in mov/mp4 (`tkhd`) and `FlagDefault`
    /// in Matroska.
    func label(stream index: Int32, title: String, isDefault: Bool) {
        Self.label(context.pointee.streams[Int(index)]!, title: title, isDefault: isDefault,
                   container: context.pointee.oformat.pointee.name.map { String(cString: $0) } ?? "")
    }

    /// `label(stream:title:isDefault:)` for a stream of any output context whose muxer is `muxerName`.
    static func label(_ stream: UnsafeMutablePointer<AVStream>, title: String, isDefault: Bool,
                      container muxerName: String) {
        av_dict_set(&stream.pointee.metadata, "title", title, 0)
        if muxerName != formatName(.mkv) { av_dict_set(&stream.pointee.metadata, "handler_name", title, 0) }
        stream.pointee.disposition = isDefault ? AV_DISPOSITION_DEFAULT : 0
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
        fragmented = container != .mkv
        try noteWhole("avformat_write_header(\(path))")
    }

    /// After a write: flushes the I/O buffer; on an I/O error marks the file torn and throws it, else notes the
    /// file's end as whole.
    private func noteWhole(_ call: String) throws {
        guard let pb = context.pointee.pb else { return }
        avio_flush(pb)
        if pb.pointee.error < 0 {
            torn = true
            throw FFmpegError(call, code: pb.pointee.error)
        }
        wholeThrough = avio_tell(pb)
    }

    /// Writes one encoder packet (timestamps in `timeBase`) to stream `index`, then flushes the I/O buffer so the
    /// bytes of every finished fragment reach the file.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational, stream index: Int32) throws {
        let stream = context.pointee.streams[Int(index)]!
        av_packet_rescale_ts(packet, timeBase, stream.pointee.time_base)
        packet.pointee.stream_index = index
        let call = "av_interleaved_write_frame(\(path))"
        let result = av_interleaved_write_frame(context, packet)
        if result < 0 {
            torn = true
            throw FFmpegError(call, code: result)
        }
        try noteWhole(call)
    }

    /// Writes the trailer (the last fragment) and closes the file. After a failed write there is no trailer: the
    /// file is closed and cut back to its last whole fragment.
    func finish() throws {
        guard headerWritten, !closed else { return }
        defer { close() }
        guard !torn else { return }
        let call = "av_write_trailer(\(path))"
        let result = av_write_trailer(context)
        if result < 0 {
            torn = true
            throw FFmpegError(call, code: result)
        }
        try noteWhole(call)
    }

    /// Closes the file without a trailer beyond what is already written (abort); after a failed write, cuts a
    /// fragmented file back to its last whole fragment.
    func close() {
        guard !closed else { return }
        closed = true
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        guard torn, fragmented, let wholeThrough else { return }
        do {
            try FileSystemCalls.truncate(path, to: wholeThrough)
        } catch {
            cutBackFailure = "\(error)"
        }
    }
}
