import CFFmpeg

/// The end of both H.264 encoders' send/receive loop — the movie's `VideoEncoder` and a live destination's
/// `StreamOutputVideoEncoder` — kept in one place: taking every packet libx264 has ready, and the end of stream.
/// "Try again" and "end of stream" from `avcodec_receive_packet` are results, not errors.
enum H264PacketDrain {
    /// Hands every packet `context` has ready to `emit`, as an `EncodedPacket` in the encoder's time base, through
    /// the reused `packet` (unreferenced after each). A packet x264 left without a duration gets
    /// `durationWhenMissing` when one is given (a muxer may drop or shorten a packet of duration 0).
    static func drain(_ context: UnsafeMutablePointer<AVCodecContext>, through packet: UnsafeMutablePointer<AVPacket>,
                      durationWhenMissing: Int64? = nil, emit: (EncodedPacket) throws -> Void) throws {
        while true {
            let result = avcodec_receive_packet(context, packet)
            if result == pausecam_averror_eagain() || result == pausecam_averror_eof() { return }
            try FFmpegError.check(result, "avcodec_receive_packet(libx264)")
            defer { av_packet_unref(packet) }
            if let durationWhenMissing, packet.pointee.duration <= 0 { packet.pointee.duration = durationWhenMissing }
            try emit(EncodedPacket(takingFrom: packet, stream: .video, timeBase: context.pointee.time_base))
        }
    }

    /// Signals the end of the stream (a second end is not an error) and hands out the delayed packets.
    static func flush(_ context: UnsafeMutablePointer<AVCodecContext>, through packet: UnsafeMutablePointer<AVPacket>,
                      durationWhenMissing: Int64? = nil, emit: (EncodedPacket) throws -> Void) throws {
        let result = avcodec_send_frame(context, nil)
        if result != pausecam_averror_eof() { try FFmpegError.check(result, "avcodec_send_frame(libx264, flush)") }
        try drain(context, through: packet, durationWhenMissing: durationWhenMissing, emit: emit)
    }
}
