import CFFmpeg
import PauseCamCore

/// AAC through FFmpeg's native `aac` encoder, fed from interleaved Int16 chunks of any rate and channel count.
///
/// Placement: a running cursor holds the file time just after the last sample placed. A chunk that starts more
/// than `tolerance` after the cursor gets silence before it; one that starts more than `tolerance` before it loses
/// its head; anything closer is appended contiguously, which absorbs sub-sample rounding at pause seams. So the
/// audio track never drifts against the file times it was given. Samples go through libswresample (to the
/// encoder's rate, layout and float planar format) into an `AVAudioFifo` that is cut into 1024-sample frames whose
/// timestamps count samples from zero. Owns its codec context, resampler and FIFO.
final class AudioEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    /// Gaps and overlaps up to this are absorbed instead of filled or trimmed.
    let tolerance = MediaTime.milliseconds(10)
    private var resampler: OpaquePointer?
    private var resamplerInput: (rate: Int32, channels: Int)?
    private let fifo: OpaquePointer
    private let packetBox = FFmpegPacketBox()
    /// File time just after the last sample placed, in the input's sample rate; `zero` before the first chunk (so
    /// audio starting after 0 is preceded by silence and the track starts with the video).
    private var cursor = MediaTime.zero
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
    }

    deinit {
        swr_free(&resampler)
        av_audio_fifo_free(fifo)
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// Places `chunk` (its `pts` is a file time) on the track and encodes every full frame.
    func append(_ chunk: AudioChunk, emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        if resamplerInput.map({ $0.rate != chunk.sampleRate || $0.channels != chunk.channels }) ?? true {
            try makeResampler(rate: chunk.sampleRate, channels: chunk.channels)
        }
        let position = try cursor.rescaled(to: chunk.sampleRate, rounding: .nearest)
        let start = try chunk.pts.rescaled(to: chunk.sampleRate, rounding: .nearest)
        let offset = start.value - position.value
        let toleranceSamples = (try? tolerance.rescaled(to: chunk.sampleRate, rounding: .nearest).value) ?? 0
        var samples = chunk.samples
        var frames = chunk.frameCount
        if offset > toleranceSamples {
            // In runs of at most a second (and encoded as they go), so a long gap never becomes one allocation.
            let run = max(1, Int64(chunk.sampleRate))
            let silence = [Int16](repeating: 0, count: Int(min(offset, run)) * chunk.channels)
            var filled: Int64 = 0
            while filled < offset {
                let frames = Int(min(run, offset - filled))
                try resample(Array(silence.prefix(frames * chunk.channels)), frames: frames, channels: chunk.channels)
                try encodeFullFrames(emit: emit)
                filled += Int64(frames)
            }
            cursor = MediaTime(value: position.value + offset, timescale: chunk.sampleRate)
        } else if offset < -toleranceSamples {
            let trimmed = min(frames, Int(-offset))
            samples.removeFirst(trimmed * chunk.channels)
            frames -= trimmed
            cursor = position
        } else {
            cursor = position
        }
        if frames > 0 {
            try resample(samples, frames: frames, channels: chunk.channels)
            cursor = MediaTime(value: cursor.value + Int64(frames), timescale: chunk.sampleRate)
        }
        try encodeFullFrames(emit: emit)
    }

    /// Drains the resampler, encodes the last (short) frame and flushes the encoder.
    func flush(emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        if let resampler {
            let output = try makeFrame(samples: 0)
            defer { FFmpegFrame.release(output) }
            output.pointee.nb_samples = 0
            try FFmpegError.check(swr_convert_frame(resampler, output, nil), "swr_convert_frame(flush)")
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

    private func makeResampler(rate: Int32, channels inputChannels: Int) throws {
        swr_free(&resampler)
        var inputLayout = AVChannelLayout()
        av_channel_layout_default(&inputLayout, Int32(inputChannels))
        defer { av_channel_layout_uninit(&inputLayout) }
        var created: OpaquePointer?
        try FFmpegError.check(swr_alloc_set_opts2(&created, &context.pointee.ch_layout, AV_SAMPLE_FMT_FLTP,
                                                  sampleRate, &inputLayout, AV_SAMPLE_FMT_S16, rate, 0, nil),
                              "swr_alloc_set_opts2(\(rate) Hz \(inputChannels) ch → \(sampleRate) Hz)")
        resampler = created
        try FFmpegError.check(swr_init(resampler), "swr_init(\(rate) Hz \(inputChannels) ch → \(sampleRate) Hz)")
        resamplerInput = (rate, inputChannels)
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
        guard let resampler, let rate = resamplerInput?.rate else { return }
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
        try FFmpegError.check(swr_convert_frame(resampler, output, input), "swr_convert_frame(\(rate) Hz)")
        if output.pointee.nb_samples > 0 {
            try FFmpegError.check(pausecam_audio_fifo_write_frame(fifo, output), "av_audio_fifo_write")
        }
    }

    private func encodeFullFrames(emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        let frameSize = context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024
        while av_audio_fifo_size(fifo) >= frameSize { try encodeFrame(samples: frameSize, emit: emit) }
    }

    private func encodeFrame(samples: Int32, emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        let frame = try makeFrame(samples: samples)
        defer { FFmpegFrame.release(frame) }
        let read = pausecam_audio_fifo_read_frame(fifo, frame, samples)
        try FFmpegError.check(read, "av_audio_fifo_read(\(samples))")
        frame.pointee.pts = samplesEncoded
        samplesEncoded += Int64(read)
        try FFmpegError.check(avcodec_send_frame(context, frame), "avcodec_send_frame(aac)")
        try drain(emit: emit)
    }

    private func drain(emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        while true {
            let result = avcodec_receive_packet(context, packetBox.packet)
            if result == pausecam_averror_eagain() || result == pausecam_averror_eof() { return }
            try FFmpegError.check(result, "avcodec_receive_packet(aac)")
            defer { av_packet_unref(packetBox.packet) }
            try emit(packetBox.packet)
        }
    }
}
