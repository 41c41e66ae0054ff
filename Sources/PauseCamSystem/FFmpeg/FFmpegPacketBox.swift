import CFFmpeg

/// Owns one reusable `AVPacket` (allocated once, freed with the box), so encoders and the remuxer need no manual
/// `av_packet_free` on every path.
final class FFmpegPacketBox {
    let packet: UnsafeMutablePointer<AVPacket>

    init() {
        guard let packet = av_packet_alloc() else { preconditionFailure("av_packet_alloc: out of memory") }
        self.packet = packet
    }

    deinit {
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
    }
}
