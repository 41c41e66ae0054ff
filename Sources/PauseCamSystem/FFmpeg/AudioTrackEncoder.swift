import CFFmpeg
import PauseCamCore

/// One of a movie's AAC tracks: FFmpeg's native `aac` encoder for some of the channels `AudioEncoder` has placed
/// and resampled. The placement, the drift correction and the resampler are `AudioEncoder`'s, shared by every
/// track, so every track gets the same samples at the same times and the tracks stay sample-aligned; a track only
/// picks its channels out of each frame and encodes them. Owns its codec context.
final class AudioTrackEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// The track's position among the movie's audio tracks (its packets' `EncodedPacket.Stream.audio`).
    let number: Int
    /// Indices of the frames' planes this track carries, in order.
    let channels: [Int]
    /// What players list it as (the stream's `title`); `nil` for the one track of a movie without `tracks`.
    let title: String?
    /// True when the track is every plane in order: it encodes the shared frame itself, without a copy.
    let takesEveryChannel: Bool
    private let packetBox = FFmpegPacketBox()

    /// Opens an encoder for `channels` (indices into the `totalChannels` planes of the frames it will be handed)
    /// at `sampleRate` and `bitrate`.
    init(number: Int, channels: [Int], totalChannels: Int, title: String?, sampleRate: Int32, bitrate: Int,
         globalHeader: Bool) throws {
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw FFmpegError("avcodec_find_encoder_by_name(aac)", code: pausecam_averror(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError("avcodec_alloc_context3(aac)", code: pausecam_averror(ENOMEM))
        }
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = sampleRate
        context.pointee.time_base = AVRational(num: 1, den: sampleRate)
        context.pointee.bit_rate = Int64(bitrate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels.count))
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&owned)
            let named = title.map { " \"\($0)\"" } ?? ""
            throw FFmpegError("avcodec_open2(aac \(sampleRate) Hz \(channels.count) ch\(named))", code: opened)
        }
        self.context = context
        self.number = number
        self.channels = channels
        self.title = title
        takesEveryChannel = channels == Array(0..<totalChannels)
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Samples per frame the encoder takes (AAC's 1024).
    var frameSize: Int32 { context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024 }

    /// Encodes this track's channels of `frame` (float planar, every channel `AudioEncoder` holds, its `pts` set)
    /// and hands out the packets ready. `frame` stays the caller's: the track copies its planes out of it, or, when
    /// it takes every channel, hands the encoder a new reference to it.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>, emit: (EncodedPacket) throws -> Void) throws {
        if takesEveryChannel {
            try FFmpegError.check(avcodec_send_frame(context, frame), "avcodec_send_frame(aac)")
        } else {
            let own = try planes(of: frame)
            defer { FFmpegFrame.release(own) }
            try FFmpegError.check(avcodec_send_frame(context, own), "avcodec_send_frame(aac \(title ?? ""))")
        }
        try drain(emit: emit)
    }

    /// Flushes the encoder: its delayed packets.
    func flush(emit: (EncodedPacket) throws -> Void) throws {
        let result = avcodec_send_frame(context, nil)
        if result != pausecam_averror_eof() { try FFmpegError.check(result, "avcodec_send_frame(aac, flush)") }
        try drain(emit: emit)
    }

    /// A frame of this track's layout holding copies of its planes of `frame` (one `memcpy` per channel).
    private func planes(of frame: UnsafeMutablePointer<AVFrame>) throws -> UnsafeMutablePointer<AVFrame> {
        let own = try FFmpegFrame.allocate("audio track")
        own.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        own.pointee.sample_rate = frame.pointee.sample_rate
        own.pointee.nb_samples = frame.pointee.nb_samples
        own.pointee.pts = frame.pointee.pts
        av_channel_layout_copy(&own.pointee.ch_layout, &context.pointee.ch_layout)
        let result = av_frame_get_buffer(own, 0)
        if result < 0 {
            FFmpegFrame.release(own)
            throw FFmpegError("av_frame_get_buffer(audio track \(frame.pointee.nb_samples))", code: result)
        }
        let bytes = Int(frame.pointee.nb_samples) * MemoryLayout<Float>.size
        for (plane, channel) in channels.enumerated() {
            guard let target = own.pointee.extended_data[plane], let source = frame.pointee.extended_data[channel]
            else { continue }
            target.update(from: source, count: bytes)
        }
        return own
    }

    private func drain(emit: (EncodedPacket) throws -> Void) throws {
        while true {
            let result = avcodec_receive_packet(context, packetBox.packet)
            if result == pausecam_averror_eagain() || result == pausecam_averror_eof() { return }
            try FFmpegError.check(result, "avcodec_receive_packet(aac)")
            defer { av_packet_unref(packetBox.packet) }
            try emit(EncodedPacket(takingFrom: packetBox.packet, stream: .audio(track: number),
                                   timeBase: context.pointee.time_base))
        }
    }
}
