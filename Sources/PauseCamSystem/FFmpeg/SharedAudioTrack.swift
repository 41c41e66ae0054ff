import CFFmpeg
import Foundation

/// The program's AAC track, shared with the clip's ISO movies: the program's audio thread hands every packet it
/// muxes here too, and each ISO subscribed takes the same packets into its own `.partial` by stream copy (a new
/// reference to the same bytes, `av_packet_ref`), with the program's codec parameters. So an ISO has no AAC encoder:
/// its sound is the program's, byte for byte, on the same file timeline (the ISOs share the program's file time
/// exactly), and the program's sound is encoded once however many ISOs there are.
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
        /// The program's AAC track, or `nil`: the program records no sound.
        case opened(AudioTrackFormat?)
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

    /// The program's encoders opened; `format` describes its AAC track (`nil`: no sound).
    func publish(_ format: AudioTrackFormat?) { settle(.opened(format)) }

    /// The program's encoders did not open (`error`): its ISOs cannot take its sound.
    func publish(failure error: Error) { settle(.failed(error)) }

    private func settle(_ newState: State) {
        condition.withLock {
            state = newState
            condition.broadcast()
        }
    }

    /// Waits until the program has opened; gives its AAC track's format (`nil`: no sound), or throws why it failed.
    func waitForFormat() throws -> AudioTrackFormat? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch state {
            case .opening: condition.wait()
            case .opened(let format): return format
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

/// An AAC track's codec parameters and timing, as the program's encoder opened it: what an ISO's muxer describes its
/// copied track with (the extradata, the priming, the packet size) and what its finish edits with.
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

    /// The format of `encoder`'s track, copied.
    init(encoder: AudioEncoder) throws {
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
        sampleRate = encoder.sampleRate
        primingSamples = Int64(encoder.context.pointee.initial_padding)
        packetSamples = Int64(encoder.context.pointee.frame_size)
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&owned)
    }
}
