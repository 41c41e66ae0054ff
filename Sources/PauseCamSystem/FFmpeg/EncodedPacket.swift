import CFFmpeg

/// One compressed packet from an encoder stage, on its way to the stages that take packets: the join between
/// encoding and muxing, in the manner of libobs's `encoder_packet` between `obs_encoder_info` and
/// `obs_output_info`. An encoder hands out `EncodedPacket`s and knows nothing of who takes them, so a later stage
/// (a monitor's stream, an ISO writer, a second muxer) plugs in beside the `.partial`'s muxer without touching the
/// encoder.
///
/// Ownership: the packet owns one reference to libavcodec's refcounted buffer (and its side data), taken over from
/// the encoder without a copy, and never changes after it is made. A stage that must own a packet (a muxer, which
/// consumes what it writes) takes a new reference with `withReference`; the bytes are shared, not copied.
/// Unchecked Sendable: immutable after `init`; its `AVPacket` is only read, and references are taken with
/// `av_packet_ref`, which is safe from any thread on a refcounted buffer.
final class EncodedPacket: @unchecked Sendable {
    /// Which of the movie's elementary streams the packet belongs to.
    enum Stream: Sendable, Equatable {
        case video
        /// The movie's audio track at this position (0: the first, the default sound).
        case audio(track: Int)
    }

    let stream: Stream
    /// The unit of `pts`, `dts` and `duration`: the encoder's time base.
    let timeBase: AVRational
    private let packet: UnsafeMutablePointer<AVPacket>

    /// Takes over what `source` holds (`av_packet_move_ref`: `source` is blank afterwards, ready for the encoder's
    /// next `avcodec_receive_packet`).
    init(takingFrom source: UnsafeMutablePointer<AVPacket>, stream: Stream, timeBase: AVRational) {
        guard let packet = av_packet_alloc() else { preconditionFailure("av_packet_alloc: out of memory") }
        av_packet_move_ref(packet, source)
        self.packet = packet
        self.stream = stream
        self.timeBase = timeBase
    }

    deinit {
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
    }

    /// Presentation time, in `timeBase`.
    var pts: Int64 { packet.pointee.pts }
    /// Decoding time, in `timeBase`.
    var dts: Int64 { packet.pointee.dts }
    /// How long the packet lasts, in `timeBase`.
    var duration: Int64 { packet.pointee.duration }
    /// True for a packet a decoder can start from (`AV_PKT_FLAG_KEY`).
    var isKeyframe: Bool { packet.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// The compressed bytes, valid while the packet lives.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)) }

    /// Puts a new reference to the packet (timestamps, flags, side data, the shared buffer) into `target`, which
    /// must be blank; the caller owns it and unreferences it (or hands it to a call that consumes it).
    func reference(into target: UnsafeMutablePointer<AVPacket>) throws {
        try FFmpegError.check(av_packet_ref(target, packet), "av_packet_ref(encoded \(stream) packet)")
    }
}
