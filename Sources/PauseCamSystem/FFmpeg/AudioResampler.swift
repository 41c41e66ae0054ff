import CFFmpeg
import PauseCamCore

/// libswresample from the microphone's interleaved Int16 to the AAC encoder's float planar layout, always in
/// resampling mode so that its compensation can stretch or squeeze the audio imperceptibly (the one drift
/// correction, see `AudioDriftCorrector`). Owns its `SwrContext`; the frames it returns belong to the caller.
final class AudioResampler {
    private var context: OpaquePointer?
    let inputRate: Int32
    let inputChannels: Int
    let outputRate: Int32
    private var compensation: (delta: Int, distance: Int) = (0, 0)

    /// A resampler from `inputRate`/`inputChannels` Int16 to `layout` in `outputFormat` (float planar for the
    /// encoder; interleaved Int16 for a voice card, `convertInterleaved`) at `outputRate`.
    init(inputRate: Int32, inputChannels: Int, layout: UnsafeMutablePointer<AVChannelLayout>, outputRate: Int32,
         outputFormat: AVSampleFormat = AV_SAMPLE_FMT_FLTP) throws {
        self.inputRate = inputRate
        self.inputChannels = inputChannels
        self.outputRate = outputRate
        var inputLayout = AVChannelLayout()
        av_channel_layout_default(&inputLayout, Int32(inputChannels))
        defer { av_channel_layout_uninit(&inputLayout) }
        let what = "\(inputRate) Hz \(inputChannels) ch → \(outputRate) Hz"
        try FFmpegError.check(swr_alloc_set_opts2(&context, layout, outputFormat, outputRate, &inputLayout,
                                                  AV_SAMPLE_FMT_S16, inputRate, 0, nil),
                              "swr_alloc_set_opts2(\(what))")
        try FFmpegError.check(swr_init(context), "swr_init(\(what))")
        // A zero compensation switches an equal-rate context into resampling mode now, with nothing buffered,
        // rather than mid-stream at the first real correction (which would re-initialise it).
        try FFmpegError.check(swr_set_compensation(context, 0, 0), "swr_set_compensation(\(what), 0, 0)")
    }

    deinit { swr_free(&context) }

    /// Output samples per channel still inside the resampler (its filter's delay), in the output rate: where the
    /// next input sample will come out. The corresponding C function is `swr_get_delay`.
    var delay: Int64 { swr_get_delay(context, Int64(outputRate)) }

    /// Asks for `delta` more (fewer when negative) output samples over the next `distance` output samples;
    /// repeated values are not passed on. The corresponding C function is `swr_set_compensation`.
    func setCompensation(delta: Int, distance: Int) throws {
        guard compensation != (delta, distance) else { return }
        try FFmpegError.check(swr_set_compensation(context, Int32(delta), Int32(distance)),
                              "swr_set_compensation(\(delta), \(distance))")
        compensation = (delta, distance)
    }

    /// Converts `frames` interleaved frames (or drains, when `input` is nil) into `output`, a frame in the
    /// output format without a buffer (libswresample allocates it). The corresponding C function is
    /// `swr_convert_frame`.
    func convert(_ input: UnsafeMutablePointer<AVFrame>?, into output: UnsafeMutablePointer<AVFrame>) throws {
        try FFmpegError.check(swr_convert_frame(context, output, input),
                              input == nil ? "swr_convert_frame(flush)" : "swr_convert_frame(\(inputRate) Hz)")
    }

    /// Converts interleaved Int16 frames into interleaved Int16 frames (a resampler made with
    /// `AV_SAMPLE_FMT_S16` and the input's channels). The corresponding C function is `swr_convert`.
    func convertInterleaved(_ samples: [Int16]) throws -> [Int16] {
        let inputFrames = Int32(samples.count / inputChannels)
        let capacity = Int(swr_get_out_samples(context, inputFrames))
        guard capacity > 0 else { return [] }
        var output = [Int16](repeating: 0, count: capacity * inputChannels)
        let produced = try output.withUnsafeMutableBytes { outBytes -> Int32 in
            try samples.withUnsafeBytes { inBytes -> Int32 in
                var outPointer: UnsafeMutablePointer<UInt8>? = outBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                var inPointer: UnsafePointer<UInt8>? = inBytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                let count = swr_convert(context, &outPointer, Int32(capacity), &inPointer, inputFrames)
                try FFmpegError.check(count, "swr_convert(\(inputChannels) ch)")
                return count
            }
        }
        output.removeLast((capacity - Int(produced)) * inputChannels)
        return output
    }
}
