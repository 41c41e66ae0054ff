import CFFmpeg
import Foundation
import PauseCamCore

/// One connection of a `StreamOutput` to its destination: the muxer (FLV for RTMP(S), MPEG-TS for SRT) opened on the
/// URL through libavformat's own protocol, and fresh encoders whose times start at zero with the connection. Made
/// and used on the output's thread only; every network call runs under the interrupt's deadline, so none can
/// block for ever. A failure throws, and the caller drops the connection and tries a new one later.
final class StreamOutputConnection {
    /// How long connecting (and writing the header) may take.
    static let connectSeconds = 10.0
    /// How long one packet's write may take before the destination counts as gone.
    static let writeSeconds = 5.0

    /// The muxer's context and the one packet reused for writing, freed together (also when `init` throws).
    private final class Handle {
        let format: UnsafeMutablePointer<AVFormatContext>
        let packet: UnsafeMutablePointer<AVPacket>
        var headerWritten = false

        init(container: String) throws {
            var context: UnsafeMutablePointer<AVFormatContext>?
            let allocated = avformat_alloc_output_context2(&context, nil, container, nil)
            guard allocated >= 0, let context else {
                throw FFmpegError("avformat_alloc_output_context2(\(container))",
                                  code: allocated < 0 ? allocated : pausecam_averror(ENOMEM))
            }
            guard let packet = av_packet_alloc() else {
                avformat_free_context(context)
                throw FFmpegError("av_packet_alloc", code: pausecam_averror(ENOMEM))
            }
            format = context
            self.packet = packet
        }

        deinit {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
        }
    }

    private let handle: Handle
    private let video: StreamOutputVideoEncoder
    private let audio: AudioEncoder?
    private let videoStream: UnsafeMutablePointer<AVStream>
    private let audioStream: UnsafeMutablePointer<AVStream>?
    private let interrupt: StreamOutputInterrupt
    /// Bytes handed to the muxer so far (for the bitrate shown in `status`).
    private(set) var bytesSent = 0
    /// Told, after each video packet went to the muxer, its time since the connection started (a benchmark's hook).
    var videoPacketWritten: ((MediaTime) -> Void)?

    init(settings: StreamOutput.Settings, interrupt: StreamOutputInterrupt) throws {
        self.interrupt = interrupt
        let container = settings.url.scheme.container
        let handle = try Handle(container: container)
        self.handle = handle
        let context = handle.format
        let globalHeader = (context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER) != 0
        video = try StreamOutputVideoEncoder(width: settings.width, height: settings.height, rate: settings.rate,
                                             bitrate: settings.bitrate, preset: settings.preset,
                                             keyframeInterval: settings.keyframeInterval, globalHeader: globalHeader)
        guard let videoStream = avformat_new_stream(context, nil) else {
            throw FFmpegError("avformat_new_stream(video)", code: pausecam_averror(ENOMEM))
        }
        try FFmpegError.check(avcodec_parameters_from_context(videoStream.pointee.codecpar, video.context),
                              "avcodec_parameters_from_context(video)")
        videoStream.pointee.time_base = video.context.pointee.time_base
        self.videoStream = videoStream
        if let rate = settings.audioSampleRate {
            let encoder = try AudioEncoder(settings: MovieSettings.AudioSettings(
                sampleRate: rate, channels: settings.audioChannels, bitrate: settings.audioBitrate, declick: false),
                globalHeader: globalHeader)
            guard let track = encoder.tracks.first, let stream = avformat_new_stream(context, nil) else {
                throw FFmpegError("avformat_new_stream(audio)", code: pausecam_averror(ENOMEM))
            }
            try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, track.context),
                                  "avcodec_parameters_from_context(audio)")
            stream.pointee.time_base = track.context.pointee.time_base
            audio = encoder
            audioStream = stream
        } else {
            audio = nil
            audioStream = nil
        }
        context.pointee.interrupt_callback = interrupt.callback
        var callback = interrupt.callback
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        // Microseconds for one read or write of the protocol (rtmp, tcp); SRT's own connect timeout is in ms.
        av_dict_set(&options, "rw_timeout", String(Int(Self.writeSeconds * 1_000_000)), 0)
        if settings.url.scheme == .srt {
            av_dict_set(&options, "connect_timeout", String(Int(Self.connectSeconds * 1000)), 0)
            // A clean end delivers what is still in flight instead of discarding it at close.
            av_dict_set(&options, "linger", "2", 0)
        }
        let address = settings.url.redacted
        try interrupt.within(seconds: Self.connectSeconds) {
            try FFmpegError.check(avio_open2(&context.pointee.pb, settings.url.text, AVIO_FLAG_WRITE, &callback, &options),
                                  "connecting to \(address)")
            var header: OpaquePointer?
            defer { av_dict_free(&header) }
            if container == "flv" { av_dict_set(&header, "flvflags", "no_duration_filesize", 0) }
            try FFmpegError.check(avformat_write_header(context, &header), "avformat_write_header(\(address))")
        }
        handle.headerWritten = true
    }

    /// Encodes one canvas picture at `time` since the connection started and sends its packets.
    func sendVideo(_ picture: UnsafeMutablePointer<AVFrame>, at time: MediaTime) throws {
        try video.encode(picture, at: time) { try write($0, to: videoStream) }
    }

    /// Encodes sound whose `pts` counts from the connection's start and sends its packets.
    func sendAudio(_ chunk: AudioChunk) throws {
        guard let audio, let audioStream else { return }
        try audio.append(chunk) { try write($0, to: audioStream) }
    }

    /// Ends the stream cleanly (the output is closing): the encoders' last packets and the trailer, under a deadline.
    func finish() {
        try? interrupt.within(seconds: Self.writeSeconds) {
            try video.flush { try write($0, to: videoStream) }
            if let audio, let audioStream { try audio.flush { try write($0, to: audioStream) } }
            if handle.headerWritten { av_write_trailer(handle.format) }
        }
    }

    private func write(_ encoded: EncodedPacket, to stream: UnsafeMutablePointer<AVStream>) throws {
        let format = handle.format, packet = handle.packet
        try encoded.reference(into: packet)
        let encodedPTS = packet.pointee.pts
        av_packet_rescale_ts(packet, encoded.timeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        bytesSent += Int(packet.pointee.size)
        let result = interrupt.within(seconds: Self.writeSeconds) { av_interleaved_write_frame(format, packet) }
        av_packet_unref(packet)
        try FFmpegError.check(result, "sending to the destination")
        if let videoPacketWritten, stream == videoStream, encodedPTS != Int64.min, encoded.timeBase.num == 1 {
            videoPacketWritten(MediaTime(value: encodedPTS, timescale: encoded.timeBase.den))
        }
    }
}
