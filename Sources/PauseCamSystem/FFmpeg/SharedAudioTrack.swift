import CFFmpeg
import Foundation

/// The program's AAC tracks, shared with the clip's ISO movies: the program's audio thread hands every packet it
/// muxes here too, and each ISO subscribed takes the same packets into its own `.partial` by stream copy (a new
/// reference to the same bytes, `av_packet_ref`), with the program's codec parameters and track titles. So an ISO
/// has no AAC encoder: its sound is the program's, every track of it, byte for byte, on the same file timeline (the
/// ISOs share the program's file time exactly), and the program's sound is encoded once however many ISOs there are.
///
/// Made by the program's `MovieWriter` before its encoder thread starts, so an ISO's writer can subscribe at once
/// (before the recorder sends any sound). The program publishes its format once its encoders opened (or that it has
/// none); an ISO's encoder thread waits for it before it opens its muxer. Every packet goes to every taker, never
/// throwing: a taker's trouble (full, closed, failed) is the ISO's, never the program's.
/// Unchecked Sendable: its state is only touched under `condition`.
final class SharedAudioTrack: EncodedPacketSink, @unchecked Sendable {
    /// What the program's encoder thread found when it opened.
    private enum State {
        case opening
        /// The program's AAC tracks, in order; none: the program records no sound.
        case opened([AudioTrackFormat])
        /// The program could not open: neither can its ISOs.
        case failed(Error)
    }

    private let condition = NSCondition()
    private var state = State.opening
    private var takers: [@Sendable (EncodedPacket) -> Void] = []

    /// Adds a taker of every packet from now on (an ISO's packet channel). Called before the program's first packet.
    func subscribe(_ take: @escaping @Sendable (EncodedPacket) -> Void) {
        condition.withLock { takers.append(take) }
    }

    /// The program's encoders opened; `formats` describe its AAC tracks in order (none: no sound).
    func publish(_ formats: [AudioTrackFormat]) { settle(.opened(formats)) }

    /// The program's encoders did not open (`error`): its ISOs cannot take its sound.
    func publish(failure error: Error) { settle(.failed(error)) }

    private func settle(_ newState: State) {
        condition.withLock {
            state = newState
            condition.broadcast()
        }
    }

    /// Waits until the program has opened; gives its AAC tracks' formats (none: no sound), or throws why it failed.
    func waitForFormats() throws -> [AudioTrackFormat] {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch state {
            case .opening: condition.wait()
            case .opened(let formats): return formats
            case .failed(let error):
                throw MovieWriterError(description: "the program's sound is not available to its ISO: \(error)")
            }
        }
    }

    /// Hands `packet` (one of the program's AAC packets) to every taker.
    func write(_ packet: EncodedPacket) {
        let current = condition.withLock { takers }
        for take in current { take(packet) }
    }
}

/// An AAC track's codec parameters, timing and title, as the program's encoder opened it: what the muxers describe
/// the track with (an ISO's copied track too: the extradata, the title) and what the finish edits with (the
/// priming, the packet size).
/// Unchecked Sendable: the parameters are copied once in `init` and only read after.
final class AudioTrackFormat: @unchecked Sendable {
    /// A copy of the encoder's parameters (`avcodec_parameters_from_context`), owned here.
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    /// The packets' time base (one sample).
    let timeBase: AVRational
    let sampleRate: Int32
    /// Samples of encoder delay before the first real one (AAC's 1024): the movie's edit list hides them.
    let primingSamples: Int64
    /// Samples per packet (AAC's 1024).
    let packetSamples: Int64
    /// What players list the track as; `nil` for the one track of a movie recorded without `tracks`.
    let title: String?

    /// The format of `encoder`'s track, copied.
    init(encoder: AudioTrackEncoder) throws {
        guard let parameters = avcodec_parameters_alloc() else {
            throw FFmpegError("avcodec_parameters_alloc", code: pausecam_averror(ENOMEM))
        }
        let copied = avcodec_parameters_from_context(parameters, encoder.context)
        guard copied >= 0 else {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&owned)
            throw FFmpegError("avcodec_parameters_from_context(aac)", code: copied)
        }
        self.parameters = parameters
        timeBase = encoder.context.pointee.time_base
        sampleRate = encoder.context.pointee.sample_rate
        primingSamples = Int64(encoder.context.pointee.initial_padding)
        packetSamples = Int64(encoder.context.pointee.frame_size)
        title = encoder.title
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&owned)
    }
}
