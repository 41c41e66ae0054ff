import CFFmpeg
import PauseCamCore

/// libswresample from one sound card's interleaved Int16 to the movie's rate, interleaved Int16 with the same
/// channels (an `AudioResampler` in that format), always in resampling mode so that its compensation can stretch or
/// squeeze the card's sound by a few ppm (`CardAligner`'s drift correction). Used on the serial context only.
final class VoiceResampler: SoundResampler {
    private let resampler: AudioResampler

    init(inputRate: Int32, channels: Int, outputRate: Int32) throws {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        defer { av_channel_layout_uninit(&layout) }
        resampler = try AudioResampler(inputRate: inputRate, inputChannels: channels, layout: &layout,
                                       outputRate: outputRate, outputFormat: AV_SAMPLE_FMT_S16)
    }

    var delay: Int64 { resampler.delay }

    func setCompensation(delta: Int, distance: Int) throws {
        try resampler.setCompensation(delta: delta, distance: distance)
    }

    func convert(_ samples: [Int16]) throws -> [Int16] { try resampler.convertInterleaved(samples) }
}

/// Makes libswresample voice resamplers (the composition root hands this to the engine).
public struct VoiceResamplers: SoundResamplerMaking {
    public init() {}
    public func makeResampler(inputRate: Int32, channels: Int, outputRate: Int32) throws -> any SoundResampler {
        try VoiceResampler(inputRate: inputRate, channels: channels, outputRate: outputRate)
    }
}
