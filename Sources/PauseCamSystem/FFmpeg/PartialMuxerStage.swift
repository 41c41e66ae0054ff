import CFFmpeg
import Foundation
import PauseCamCore

/// The `.partial`'s muxer as a packet stage: takes the video and audio encoders' `EncodedPacket`s from their two
/// threads, one at a time under its lock, and writes each to its stream of the fragmented file (one per audio
/// track; `PartialMovieMuxer`'s interleaver puts the streams in order).
/// Sendable: the muxer and the scratch packet are one `Guarded` value.
final class PartialMuxerStage: EncodedPacketSink {
    /// What the two threads share: the muxer and the reference handed to it.
    /// Unchecked Sendable: under lock. The pipeline that built the muxer hands it over and keeps no reference (its
    /// streams' parameters were copied from the encoders); from then on it is reached only inside `muxing`.
    private struct Muxing: @unchecked Sendable {
        let muxer: PartialMovieMuxer
        /// The reference handed to the muxer, which consumes it (blank again after each write).
        let scratch = FFmpegPacketBox()
    }

    private let videoStream: Int32
    /// The stream of each audio track, in the tracks' order.
    private let audioStreams: [Int32]
    private let muxing: Guarded<Muxing>

    /// A stage writing video packets to stream `videoStream` of `muxer` and each audio track's packets to its
    /// stream in `audioStreams` (none for a video-only movie: audio packets are then ignored, as are those of a
    /// track without a stream). The stage owns `muxer` from now on.
    init(muxer: PartialMovieMuxer, videoStream: Int32, audioStreams: [Int32]) {
        muxing = Guarded(Muxing(muxer: muxer))
        self.videoStream = videoStream
        self.audioStreams = audioStreams
    }

    func write(_ packet: EncodedPacket) throws {
        let index: Int32
        switch packet.stream {
        case .video: index = videoStream
        case .audio(let track):
            guard audioStreams.indices.contains(track) else { return }
            index = audioStreams[track]
        }
        try muxing.withLock { muxing in
            try packet.reference(into: muxing.scratch.packet)
            defer { av_packet_unref(muxing.scratch.packet) }
            try muxing.muxer.write(muxing.scratch.packet, timeBase: packet.timeBase, stream: index)
        }
    }

    /// Writes the trailer (the last fragment) and closes the file.
    func finish() throws { try muxing.withLock { try $0.muxer.finish() } }

    /// Closes the file without a trailer beyond what is already written (abort).
    func close() { muxing.withLock { $0.muxer.close() } }
}
