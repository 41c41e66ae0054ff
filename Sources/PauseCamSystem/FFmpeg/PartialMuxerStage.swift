import CFFmpeg
import Foundation

/// The `.partial`'s muxer as a packet stage: takes the video and audio encoders' `EncodedPacket`s from their two
/// threads, one at a time under its lock, and writes each to its stream of the fragmented file
/// (`PartialMovieMuxer`, whose interleaver puts the two streams in order).
/// Unchecked Sendable: the muxer and the scratch packet are used only under `lock`.
final class PartialMuxerStage: EncodedPacketSink, @unchecked Sendable {
    let muxer: PartialMovieMuxer
    private let videoStream: Int32
    private let audioStream: Int32?
    private let lock = NSLock()
    /// The reference handed to the muxer, which consumes it (blank again after each write).
    private let scratch = FFmpegPacketBox()

    /// A stage writing video packets to stream `videoStream` of `muxer` and audio packets to `audioStream` (none
    /// for a video-only movie: audio packets are then ignored).
    init(muxer: PartialMovieMuxer, videoStream: Int32, audioStream: Int32?) {
        self.muxer = muxer
        self.videoStream = videoStream
        self.audioStream = audioStream
    }

    func write(_ packet: EncodedPacket) throws {
        guard let index = packet.stream == .video ? videoStream : audioStream else { return }
        try lock.withLock {
            try packet.reference(into: scratch.packet)
            defer { av_packet_unref(scratch.packet) }
            try muxer.write(scratch.packet, timeBase: packet.timeBase, stream: index)
        }
    }

    /// Writes the trailer (the last fragment) and closes the file.
    func finish() throws { try lock.withLock { try muxer.finish() } }

    /// Closes the file without a trailer beyond what is already written (abort).
    func close() { lock.withLock { muxer.close() } }
}
