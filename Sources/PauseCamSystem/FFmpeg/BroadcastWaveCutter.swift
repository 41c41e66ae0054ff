import CFFmpeg
import Foundation
import PauseCamCore

/// Leaves `retake`'s discarded takes out of a finished voice file: reads it with libavformat's `wav` demuxer and
/// writes the samples outside the cut ranges into a new Broadcast WAV (`BroadcastWaveMuxer`, the same `bext`), then
/// renames it over the old one, so the file is whole at every moment (the old one until the rename).
///
/// Runs on the finisher's worker; owns its demuxer and muxer for the call.
enum BroadcastWaveCutter {
    /// Rewrites `path` without the samples of `cuts` (in order, not overlapping); gives the samples kept.
    static func cut(_ path: String, leavingOut cuts: [Range<Int64>], sampleRate: Int32,
                    description: BroadcastWaveMuxer.Description) throws -> Int64 {
        let temporary = path + ".cut"
        FileSystemCalls.remove(temporary)
        do {
            let kept = try copy(path, to: temporary, leavingOut: cuts, sampleRate: sampleRate,
                                description: description)
            try FileSystemCalls.rename(temporary, to: path)
            return kept
        } catch {
            FileSystemCalls.remove(temporary)
            throw error
        }
    }

    private static func copy(_ path: String, to temporary: String, leavingOut cuts: [Range<Int64>],
                             sampleRate: Int32, description: BroadcastWaveMuxer.Description) throws -> Int64 {
        var input: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_open_input(&input, path, nil, nil), "avformat_open_input(\(path))")
        defer { avformat_close_input(&input) }
        guard let input else { throw FFmpegError("avformat_open_input(\(path))", code: pausecam_averror(EINVAL)) }
        let output = try BroadcastWaveMuxer(path: temporary, sampleRate: sampleRate, description: description)
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw FFmpegError("av_packet_alloc(\(path))", code: pausecam_averror(ENOMEM)) }
        var position: Int64 = 0
        while true {
            let status = av_read_frame(input, packet)
            if status == pausecam_averror_eof() { break }
            try FFmpegError.check(status, "av_read_frame(\(path))")
            defer { av_packet_unref(packet) }
            let count = Int64(packet.pointee.size / 3)
            let packetSamples = position..<(position + count)
            var start = packetSamples.lowerBound
            for cut in cuts where cut.upperBound > start && cut.lowerBound < packetSamples.upperBound {
                if cut.lowerBound > start { try write(packet, samples: start..<cut.lowerBound, from: position, to: output) }
                start = max(start, cut.upperBound)
            }
            if start < packetSamples.upperBound {
                try write(packet, samples: start..<packetSamples.upperBound, from: position, to: output)
            }
            position += count
        }
        try output.finish()
        return output.samples
    }

    /// The packet's samples `samples` (absolute indices; the packet starts at `from`) to `output`.
    private static func write(_ packet: UnsafeMutablePointer<AVPacket>, samples: Range<Int64>, from: Int64,
                              to output: BroadcastWaveMuxer) throws {
        let offset = Int(samples.lowerBound - from) * 3, length = samples.count * 3
        let bytes = Array(UnsafeBufferPointer(start: packet.pointee.data + offset, count: length))
        try output.write(bytes, count: samples.count)
    }
}
