import CFFmpeg
import Foundation
import Glibc
import PauseCamCore

/// One Broadcast WAV (`NAME.iso/VOICE.wav`) written by libavformat's `wav` muxer: 24-bit PCM (`pcm_s24le`) mono,
/// with a `bext` chunk (`write_bext`) whose TimeReference (`time_reference` metadata) places its first sample in
/// the day, and `rf64=auto` (a file past 4 GiB becomes RF64 at the trailer). The muxer writes every chunk itself;
/// this type only hands it 24-bit packets.
///
/// Crash safety: until its trailer, the wav muxer leaves 0xFFFFFFFF in the RIFF and `data` sizes, which ffprobe
/// reads by the file's size but sox takes as 8 hours. So `syncSizes` (called every half second of sound by
/// `BroadcastWaveWriter`) flushes the samples, then writes the two sizes of what is on disk through the muxer's own
/// `AVIOContext` (seek, 32-bit little-endian, seek back): a process killed at any moment leaves a file whose header
/// is true for the samples written up to the last sync. A file past 4 GiB keeps 0xFFFFFFFF until the trailer.
///
/// Owns its `AVFormatContext` and `AVIOContext`; used by one thread at a time (see `BroadcastWaveWriter`).
final class BroadcastWaveMuxer {
    let path: String
    let sampleRate: Int32
    private let context: UnsafeMutablePointer<AVFormatContext>
    /// The file offset of the first sample (just after the `data` chunk's header).
    private var dataStart: Int64 = 0
    /// Samples written so far.
    private(set) var samples: Int64 = 0
    private var opened = false
    private var closed = false

    /// What the `bext` chunk says besides the time reference.
    struct Description {
        /// `bext` Description: the voice's name.
        var text: String
        /// TimeReference: samples since local midnight of the first sample's wall-clock instant.
        var timeReference: UInt64
        /// OriginationDate (`yyyy-MM-dd`) and OriginationTime (`HH:mm:ss`), local.
        var date: String
        var time: String
    }

    /// Creates `path` (it must not exist) and writes the header.
    init(path: String, sampleRate: Int32, description: Description) throws {
        var created: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&created, nil, "wav", path),
                              "avformat_alloc_output_context2(wav, \(path))")
        guard let created else {
            throw FFmpegError("avformat_alloc_output_context2(wav, \(path))", code: pausecam_averror(ENOMEM))
        }
        context = created
        self.path = path
        self.sampleRate = sampleRate
        guard let stream = avformat_new_stream(context, nil) else {
            throw FFmpegError("avformat_new_stream(\(path))", code: pausecam_averror(ENOMEM))
        }
        let parameters = stream.pointee.codecpar!
        parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        parameters.pointee.codec_id = AV_CODEC_ID_PCM_S24LE
        parameters.pointee.sample_rate = sampleRate
        av_channel_layout_default(&parameters.pointee.ch_layout, 1)
        parameters.pointee.bits_per_coded_sample = 24
        parameters.pointee.block_align = 3
        parameters.pointee.bit_rate = Int64(sampleRate) * 24
        stream.pointee.time_base = AVRational(num: 1, den: sampleRate)
        av_dict_set(&context.pointee.metadata, "description", description.text, 0)
        av_dict_set(&context.pointee.metadata, "originator", "PauseCam", 0)
        av_dict_set(&context.pointee.metadata, "origination_date", description.date, 0)
        av_dict_set(&context.pointee.metadata, "origination_time", description.time, 0)
        av_dict_set(&context.pointee.metadata, "time_reference", String(description.timeReference), 0)
        // No `encoder` tag: wavenc would add a LIST/INFO chunk for it before `data`; the bext says who wrote it.
        context.pointee.flags |= AVFMT_FLAG_BITEXACT
        try FFmpegError.check(avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open(\(path))")
        opened = true
        var options: OpaquePointer?
        av_dict_set(&options, "write_bext", "1", 0)
        av_dict_set(&options, "rf64", "auto", 0)
        defer { av_dict_free(&options) }
        try FFmpegError.check(avformat_write_header(context, &options), "avformat_write_header(\(path))")
        dataStart = avio_tell(context.pointee.pb)
        try syncSizes()
    }

    deinit {
        if opened && !closed { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// Appends `count` samples of 24-bit little-endian PCM (`bytes`: 3 × `count`).
    func write(_ bytes: [UInt8], count: Int) throws {
        guard count > 0 else { return }
        precondition(bytes.count == count * 3, "24-bit mono samples are 3 bytes each")
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw FFmpegError("av_packet_alloc(\(path))", code: pausecam_averror(ENOMEM)) }
        try FFmpegError.check(av_new_packet(packet, Int32(bytes.count)), "av_new_packet(\(path))")
        bytes.withUnsafeBytes { source in
            packet.pointee.data.update(from: source.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count)
        }
        packet.pointee.pts = samples
        packet.pointee.dts = samples
        packet.pointee.duration = Int64(count)
        packet.pointee.stream_index = 0
        try FFmpegError.check(av_write_frame(context, packet), "av_write_frame(\(path))")
        samples += Int64(count)
    }

    /// Flushes what was written and makes the RIFF and `data` sizes true for it (see the type's comment).
    func syncSizes() throws {
        guard let pb = context.pointee.pb else { return }
        avio_flush(pb)
        let end = avio_tell(pb)
        let riffSize = end - 8, dataSize = end - dataStart
        guard riffSize <= Int64(UInt32.max), dataSize >= 0 else { return }
        _ = avio_seek(pb, 4, SEEK_SET)
        avio_wl32(pb, UInt32(riffSize))
        _ = avio_seek(pb, dataStart - 4, SEEK_SET)
        avio_wl32(pb, UInt32(dataSize))
        _ = avio_seek(pb, end, SEEK_SET)
        avio_flush(pb)
        if pb.pointee.error < 0 { throw FFmpegError("writing \(path)", code: pb.pointee.error) }
    }

    /// Writes the trailer (the final sizes) and closes the file.
    func finish() throws {
        guard !closed else { return }
        closed = true
        defer { avio_closep(&context.pointee.pb) }
        try FFmpegError.check(av_write_trailer(context), "av_write_trailer(\(path))")
    }

    /// Closes the file without the trailer, its sizes made true first: what a crash would leave, minus the tail.
    func abandon() {
        guard !closed else { return }
        try? syncSizes()
        closed = true
        avio_closep(&context.pointee.pb)
    }

    /// `samples` as 24-bit little-endian PCM: each 16-bit sample in the top two bytes (exact, no dither needed).
    static func pcm24(_ samples: ArraySlice<Int16>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: samples.count * 3)
        var index = 0
        for sample in samples {
            let bits = UInt16(bitPattern: sample)
            bytes[index + 1] = UInt8(truncatingIfNeeded: bits)
            bytes[index + 2] = UInt8(truncatingIfNeeded: bits >> 8)
            index += 3
        }
        return bytes
    }
}
