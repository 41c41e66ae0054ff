import CFFmpeg
import PauseCamCore

/// AAC through FFmpeg's native `aac` encoder, fed from interleaved Int16 chunks of any rate and channel count.
///
/// Placement: each chunk's `pts` (a file time) says where it belongs; the track's own position is the samples
/// already placed (encoded, waiting in the FIFO, or inside the resampler). `AudioDriftCorrector` turns the
/// difference into libswresample compensation — a gentle, inaudible stretch or squeeze, the one drift correction —
/// and only a stall beyond 200 ms into silence or a cut, counted for the sidecar. Samples go through the
/// `AudioResampler` (to the encoder's rate, layout and float planar format) into an `AVAudioFifo` that is cut into
/// 1024-sample frames whose timestamps count samples from zero. Owns its codec context, resampler and FIFO; each
/// packet is handed to `emit` as an `EncodedPacket` (the encoder knows no muxer).
final class AudioEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    private var resampler: AudioResampler?
    private let fifo: OpaquePointer
    private let packetBox = FFmpegPacketBox()
    /// The one drift correction (its counters are the sidecar's stall report).
    private(set) var corrector: AudioDriftCorrector
    private var samplesEncoded: Int64 = 0
    /// Sample frames written to the encoder (after resampling, silence included).
    var samplesWritten: Int { Int(samplesEncoded) }
    let sampleRate: Int32
    let channels: Int

    init(settings: MovieSettings.AudioSettings, globalHeader: Bool) throws {
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw FFmpegError("avcodec_find_encoder_by_name(aac)", code: pausecam_averror(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError("avcodec_alloc_context3(aac)", code: pausecam_averror(ENOMEM))
        }
        let channels = max(1, settings.channels)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = settings.sampleRate
        context.pointee.time_base = AVRational(num: 1, den: settings.sampleRate)
        context.pointee.bit_rate = Int64(settings.bitrate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        if globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0, let fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(channels), 4096) else {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&owned)
            throw FFmpegError("avcodec_open2(aac \(settings.sampleRate) Hz \(channels) ch)",
                              code: opened < 0 ? opened : pausecam_averror(ENOMEM))
        }
        // Stored only now that everything opened: a failure above freed the context before `self` was fully
        // initialized, so `deinit` never frees it a second time.
        self.context = context
        self.fifo = fifo
        sampleRate = settings.sampleRate
        self.channels = channels
        corrector = AudioDriftCorrector(sampleRate: settings.sampleRate)
    }

    deinit {
        av_audio_fifo_free(fifo)
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Places `chunk` (its `pts` is a file time) on the track and encodes every full frame.
    func append(_ chunk: AudioChunk, emit: (EncodedPacket) throws -> Void) throws {
        if resampler.map({ $0.inputRate != chunk.sampleRate || $0.inputChannels != chunk.channels }) ?? true {
            resampler = try AudioResampler(inputRate: chunk.sampleRate, inputChannels: chunk.channels,
                                           layout: &context.pointee.ch_layout, outputRate: sampleRate)
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
        let result = avcodec_send_frame(context, nil)
        if result != pausecam_averror_eof() { try FFmpegError.check(result, "avcodec_send_frame(aac, flush)") }
        try drain(emit: emit)
    }

    /// A frame in the encoder's format with room for `samples` (no buffer when 0: swr allocates it).
    private func makeFrame(samples: Int32) throws -> UnsafeMutablePointer<AVFrame> {
        let frame = try FFmpegFrame.allocate("audio")
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = sampleRate
        av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout)
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
        let frameSize = context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024
        while av_audio_fifo_size(fifo) >= frameSize { try encodeFrame(samples: frameSize, emit: emit) }
    }

    private func encodeFrame(samples: Int32, emit: (EncodedPacket) throws -> Void) throws {
        let frame = try makeFrame(samples: samples)
        defer { FFmpegFrame.release(frame) }
        let read = pausecam_audio_fifo_read_frame(fifo, frame, samples)
        try FFmpegError.check(read, "av_audio_fifo_read(\(samples))")
        frame.pointee.pts = samplesEncoded
        samplesEncoded += Int64(read)
        try FFmpegError.check(avcodec_send_frame(context, frame), "avcodec_send_frame(aac)")
        try drain(emit: emit)
    }

    private func drain(emit: (EncodedPacket) throws -> Void) throws {
        while true {
            let result = avcodec_receive_packet(context, packetBox.packet)
            if result == pausecam_averror_eagain() || result == pausecam_averror_eof() { return }
            try FFmpegError.check(result, "avcodec_receive_packet(aac)")
            defer { av_packet_unref(packetBox.packet) }
            try emit(EncodedPacket(takingFrom: packetBox.packet, stream: .audio, timeBase: context.pointee.time_base))
        }
    }
}
