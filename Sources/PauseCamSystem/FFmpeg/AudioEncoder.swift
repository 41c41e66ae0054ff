import CFFmpeg
import PauseCamCore

/// AAC through FFmpeg's native `aac` encoder, fed from interleaved Int16 chunks of any rate and channel count, into
/// one or more tracks (`MovieSettings.AudioSettings.tracks`: the stereo mix, then a mono track per voice).
///
/// Placement: each chunk's `pts` (a file time) says where it belongs; the sound's own position is the samples
/// already placed (encoded, waiting in the FIFO, or inside the resampler). `AudioDriftCorrector` turns the
/// difference into libswresample compensation — a gentle, inaudible stretch or squeeze, the one drift correction —
/// and only a stall beyond 200 ms into silence or a cut, counted for the sidecar. Samples go through the
/// `AudioResampler` (to the encoder's rate and float planar format, every channel of the chunks) into an
/// `AVAudioFifo` that is cut into 1024-sample frames whose timestamps count samples from zero; each frame goes to
/// every track's `AudioTrackEncoder`, which encodes its own channels of it. One placement, one resampler and one
/// FIFO for all the tracks: every correction (silence, a cut, a stretch) is made once, on every channel alike, so
/// the tracks stay sample-aligned with each other and their packets have the same times. Owns its resampler, FIFO
/// and track encoders; each packet is handed to `emit` as an `EncodedPacket` (the encoder knows no muxer).
final class AudioEncoder {
    /// One AAC encoder per track, in the movie's order (the first is the movie's default sound).
    let tracks: [AudioTrackEncoder]
    private var resampler: AudioResampler?
    private let fifo: OpaquePointer
    /// The channel layout of every channel placed (what the resampler makes and the FIFO holds).
    private var layout = AVChannelLayout()
    /// The one drift correction (its counters are the sidecar's stall report).
    private(set) var corrector: AudioDriftCorrector
    private var samplesEncoded: Int64 = 0
    /// Sample frames written to the encoders (after resampling, silence included): every track's, the same.
    var samplesWritten: Int { Int(samplesEncoded) }
    let sampleRate: Int32
    /// Channels placed: the chunks' channels as the settings give them (`AudioSettings.channels`).
    let channels: Int

    /// Opens one AAC encoder per track of `settings` (one of every channel when it names none). A track that
    /// names no channel or one the chunks do not have is refused here, before anything is recorded. `bitrate` is
    /// the first track's; every other track gets it in proportion to its channels (a mono voice half a stereo mix's).
    init(settings: MovieSettings.AudioSettings, globalHeader: Bool) throws {
        let channels = max(1, settings.channels)
        let plan: [(title: String?, channels: [Int])] = settings.tracks.isEmpty
            ? [(nil, Array(0..<channels))] : settings.tracks.map { ($0.title, $0.channels) }
        for track in plan where track.channels.isEmpty || !track.channels.allSatisfy({ (0..<channels).contains($0) }) {
            throw MovieWriterError(description: "the audio track \"\(track.title ?? "")\" takes channels "
                                   + "\(track.channels) of the \(channels) recorded (0 to \(channels - 1))")
        }
        let firstChannels = plan[0].channels.count
        tracks = try plan.enumerated().map { number, track in
            let bitrate = Int((Int64(settings.bitrate) * Int64(track.channels.count) / Int64(firstChannels)))
            return try AudioTrackEncoder(number: number, channels: track.channels, totalChannels: channels,
                                         title: track.title, sampleRate: settings.sampleRate, bitrate: bitrate,
                                         globalHeader: globalHeader)
        }
        guard let fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(channels), 4096) else {
            throw FFmpegError("av_audio_fifo_alloc(\(channels) ch)", code: pausecam_averror(ENOMEM))
        }
        self.fifo = fifo
        sampleRate = settings.sampleRate
        self.channels = channels
        av_channel_layout_default(&layout, Int32(channels))
        corrector = AudioDriftCorrector(sampleRate: settings.sampleRate)
    }

    deinit {
        av_audio_fifo_free(fifo)
        av_channel_layout_uninit(&layout)
    }

    /// Places `chunk` (its `pts` is a file time) on the track and encodes every full frame.
    func append(_ chunk: AudioChunk, emit: (EncodedPacket) throws -> Void) throws {
        if resampler.map({ $0.inputRate != chunk.sampleRate || $0.inputChannels != chunk.channels }) ?? true {
            resampler = try AudioResampler(inputRate: chunk.sampleRate, inputChannels: chunk.channels,
                                           layout: &layout, outputRate: sampleRate)
        }
        guard let resampler else { return }
        let expected = try chunk.pts.rescaled(to: sampleRate, rounding: .nearest).value
        let position = samplesEncoded + Int64(av_audio_fifo_size(fifo)) + resampler.delay
        var samples = chunk.samples
        var frames = chunk.frameCount
        switch corrector.correction(expected: expected, position: position) {
        case .placeFirst(let silence), .insertSilence(let silence):
            try insertSilence(outputSamples: silence, channels: chunk.channels, emit: emit)
        case .drop(let outputSamples):
            let trimmed = min(frames, Int(Int64(outputSamples) * Int64(chunk.sampleRate) / Int64(sampleRate)))
            samples.removeFirst(trimmed * chunk.channels)
            frames -= trimmed
        case .compensate(let delta, let distance):
            try resampler.setCompensation(delta: delta, distance: distance)
        }
        if frames > 0 { try resample(samples, frames: frames, channels: chunk.channels) }
        try encodeFullFrames(emit: emit)
    }

    /// Silence lasting `outputSamples` of the output rate, through the resampler (so it stays in order with what
    /// the resampler still holds), in runs of at most a second so a long gap never becomes one allocation.
    private func insertSilence(outputSamples: Int, channels: Int,
                               emit: (EncodedPacket) throws -> Void) throws {
        guard let rate = resampler?.inputRate, outputSamples > 0 else { return }
        let inputFrames = Int64(outputSamples) * Int64(rate) / Int64(sampleRate)
        let run = max(1, Int64(rate))
        let silence = [Int16](repeating: 0, count: Int(min(inputFrames, run)) * channels)
        var filled: Int64 = 0
        while filled < inputFrames {
            let frames = Int(min(run, inputFrames - filled))
            try resample(Array(silence.prefix(frames * channels)), frames: frames, channels: channels)
            try encodeFullFrames(emit: emit)
            filled += Int64(frames)
        }
    }

    /// Drains the resampler, encodes the last (short) frame and flushes the encoder.
    func flush(emit: (EncodedPacket) throws -> Void) throws {
        if let resampler {
            let output = try makeFrame(samples: 0)
            defer { FFmpegFrame.release(output) }
            output.pointee.nb_samples = 0
            try resampler.convert(nil, into: output)
            if output.pointee.nb_samples > 0 {
                try FFmpegError.check(pausecam_audio_fifo_write_frame(fifo, output), "av_audio_fifo_write")
            }
        }
        try encodeFullFrames(emit: emit)
        let rest = av_audio_fifo_size(fifo)
        if rest > 0 { try encodeFrame(samples: rest, emit: emit) }
        for track in tracks { try track.flush(emit: emit) }
    }

    /// A frame of every channel placed, float planar, with room for `samples` (no buffer when 0: swr allocates it).
    private func makeFrame(samples: Int32) throws -> UnsafeMutablePointer<AVFrame> {
        let frame = try FFmpegFrame.allocate("audio")
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = sampleRate
        av_channel_layout_copy(&frame.pointee.ch_layout, &layout)
        frame.pointee.nb_samples = samples
        if samples > 0 {
            let result = av_frame_get_buffer(frame, 0)
            if result < 0 {
                FFmpegFrame.release(frame)
                throw FFmpegError("av_frame_get_buffer(audio \(samples))", code: result)
            }
        }
        return frame
    }

    private func resample(_ samples: [Int16], frames: Int, channels inputChannels: Int) throws {
        guard let resampler else { return }
        let rate = resampler.inputRate
        let input = try FFmpegFrame.allocate("pcm")
        defer { FFmpegFrame.release(input) }
        input.pointee.format = AV_SAMPLE_FMT_S16.rawValue
        input.pointee.sample_rate = rate
        input.pointee.nb_samples = Int32(frames)
        av_channel_layout_default(&input.pointee.ch_layout, Int32(inputChannels))
        try FFmpegError.check(av_frame_get_buffer(input, 0), "av_frame_get_buffer(pcm \(frames))")
        samples.withUnsafeBytes { bytes in
            input.pointee.data.0!.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!,
                                          count: frames * inputChannels * 2)
        }
        let output = try makeFrame(samples: 0)
        defer { FFmpegFrame.release(output) }
        try resampler.convert(input, into: output)
        if output.pointee.nb_samples > 0 {
            try FFmpegError.check(pausecam_audio_fifo_write_frame(fifo, output), "av_audio_fifo_write")
        }
    }

    private func encodeFullFrames(emit: (EncodedPacket) throws -> Void) throws {
        let frameSize = tracks[0].frameSize
        while av_audio_fifo_size(fifo) >= frameSize { try encodeFrame(samples: frameSize, emit: emit) }
    }

    private func encodeFrame(samples: Int32, emit: (EncodedPacket) throws -> Void) throws {
        let frame = try makeFrame(samples: samples)
        defer { FFmpegFrame.release(frame) }
        let read = pausecam_audio_fifo_read_frame(fifo, frame, samples)
        try FFmpegError.check(read, "av_audio_fifo_read(\(samples))")
        frame.pointee.pts = samplesEncoded
        samplesEncoded += Int64(read)
        frame.pointee.nb_samples = read
        for track in tracks { try track.encode(frame, emit: emit) }
    }
}
