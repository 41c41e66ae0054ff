import CFFmpeg
import PauseCamCore

/// libswresample from one sound card's interleaved Int16 to the movie's rate, interleaved Int16 with the same
/// channels, always in resampling mode so that its compensation can stretch or squeeze the card's sound by a few
/// ppm (`CardAligner`'s drift correction). Owns its `SwrContext`. Used on the serial context only.
final class VoiceResampler: SoundResampler {
    private var context: OpaquePointer?
    private let channels: Int
    private let outputRate: Int32
    private var compensation: (delta: Int, distance: Int) = (0, 0)

    init(inputRate: Int32, channels: Int, outputRate: Int32) throws {
        self.channels = channels
        self.outputRate = outputRate
        var layout = AVChannelLayout()
        var inputLayout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        av_channel_layout_default(&inputLayout, Int32(channels))
        defer {
            av_channel_layout_uninit(&layout)
            av_channel_layout_uninit(&inputLayout)
        }
        let what = "\(inputRate) Hz \(channels) ch → \(outputRate) Hz"
        try FFmpegError.check(swr_alloc_set_opts2(&context, &layout, AV_SAMPLE_FMT_S16, outputRate, &inputLayout,
                                                  AV_SAMPLE_FMT_S16, inputRate, 0, nil),
                              "swr_alloc_set_opts2(\(what))")
        try FFmpegError.check(swr_init(context), "swr_init(\(what))")
        // A zero compensation switches an equal-rate context into resampling mode now, not at the first correction.
        try FFmpegError.check(swr_set_compensation(context, 0, 0), "swr_set_compensation(\(what), 0, 0)")
    }

    deinit { swr_free(&context) }

    var delay: Int64 { swr_get_delay(context, Int64(outputRate)) }

    func setCompensation(delta: Int, distance: Int) throws {
        guard compensation != (delta, distance) else { return }
        try FFmpegError.check(swr_set_compensation(context, Int32(delta), Int32(distance)),
                              "swr_set_compensation(\(delta), \(distance))")
        compensation = (delta, distance)
    }

    func convert(_ samples: [Int16]) throws -> [Int16] {
        let inputFrames = Int32(samples.count / channels)
        let capacity = Int(swr_get_out_samples(context, inputFrames))
        guard capacity > 0 else { return [] }
        var output = [Int16](repeating: 0, count: capacity * channels)
        let produced = try output.withUnsafeMutableBytes { outBytes -> Int32 in
            try samples.withUnsafeBytes { inBytes -> Int32 in
                var outPointer: UnsafeMutablePointer<UInt8>? = outBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                var inPointer: UnsafePointer<UInt8>? = inBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                let count = swr_convert(context, &outPointer, Int32(capacity), &inPointer, inputFrames)
                try FFmpegError.check(count, "swr_convert(\(channels) ch)")
                return count
            }
        }
        output.removeLast((capacity - Int(produced)) * channels)
        return output
    }
}

/// Makes libswresample voice resamplers (the composition root hands this to the engine).
public struct VoiceResamplers: SoundResamplerMaking {
    public init() {}
    public func makeResampler(inputRate: Int32, channels: Int, outputRate: Int32) throws -> any SoundResampler {
        try VoiceResampler(inputRate: inputRate, channels: channels, outputRate: outputRate)
    }
}
