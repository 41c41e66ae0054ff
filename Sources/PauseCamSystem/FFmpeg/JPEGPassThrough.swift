import CFFmpeg
import Foundation
import PauseCamCore

/// The video stage of a movie whose pictures stay JPEG (the ISO of an MJPEG lens): each of the camera's JPEGs
/// becomes one MJPEG packet with the bytes as they came — no decode, no encode — stamped with its file time. Every
/// packet is a keyframe, so every cut and every retake lands exactly on a frame.
///
/// A picture that is not such a JPEG — the no-signal slate, a camera re-plugged in another format or size, a
/// picture to be turned — is drawn onto a canvas of the movie's size (`CanvasScaler`) and encoded by libavcodec's
/// mjpeg encoder (`JPEGEncoder`). A picture handed in again (a held slot repeats the same frame) reuses the last
/// packet's bytes (a new reference to its buffer, no copy), so a held slate is encoded once.
///
/// Timestamps: file times are rescaled to 1/90000 with rounding and kept strictly increasing, as `VideoEncoder`
/// does for H.264, so the ISO's frame times equal the program's.
///
/// Used by one thread (`MovieWriter`'s encoder thread, through `EncodingPipeline`); the packets go to the packet
/// stage, which serializes itself against the audio thread. Owns its scaler, its JPEG encoder and the last packet.
final class JPEGPassThrough {
    /// The stream's time base.
    static let timescale: Int32 = 90_000
    /// The movie's picture size: a JPEG of another size is drawn and encoded again.
    let width: Int
    let height: Int
    /// One frame at the movie's rate, in 1/90000: every packet's duration.
    let frameDuration: Int64
    /// Packets handed to the packet stage (passed through, encoded or repeated).
    private(set) var packetsWritten = 0
    /// Pictures encoded here as JPEG because they were not a JPEG of the movie's size.
    private(set) var picturesEncoded = 0
    private let scaler: CanvasScaler
    private let encoder = JPEGEncoder(quantiser: 3)
    private let scratch = FFmpegPacketBox()
    private var lastPTS: Int64?
    /// The last picture handed in and its packet: the same picture again reuses the packet.
    private var last: (source: VideoFrame, packet: EncodedPacket)?

    /// A stage for a `settings.width`×`settings.height` movie at `settings.rate`.
    init(settings: MovieSettings) {
        width = settings.width & ~1
        height = settings.height & ~1
        scaler = CanvasScaler(width: width, height: height)
        frameDuration = (try? settings.rate.frameDuration.rescaled(to: Self.timescale, rounding: .nearest).value)
            ?? 3000
    }

    /// Describes the stream for the muxer: MJPEG at the movie's size, full range (what JFIF means).
    func describe(_ parameters: UnsafeMutablePointer<AVCodecParameters>) {
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = AV_CODEC_ID_MJPEG
        parameters.pointee.width = Int32(width)
        parameters.pointee.height = Int32(height)
        parameters.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        parameters.pointee.color_range = AVCOL_RANGE_JPEG
    }

    /// True when `frame`'s bytes can go into the movie as they are: a JPEG of the movie's size, shown as captured.
    func passesThrough(_ frame: VideoFrame) -> Bool {
        frame.format == .jpeg && frame.width == width && frame.height == height && frame.orientation == .upright
            && frame.crop == nil && frame.planes.count == 1 && frame.planes[0].bytes.count > 2
    }

    /// Writes `frame` at `fileTime` to `stage`: its JPEG as it came, or the JPEG encoded here of its picture.
    func write(_ frame: VideoFrame, at fileTime: MediaTime, to stage: any EncodedPacketSink) throws {
        let pts = presentationTimestamp(for: fileTime)
        if let last, Self.samePicture(last.source, frame) {
            return try writeAgain(last.packet, pts: pts, to: stage)
        }
        let bytes: [UInt8]
        if passesThrough(frame) {
            bytes = frame.planes[0].bytes
        } else {
            let canvas = try scaler.scale(frame)
            defer { scaler.recycle(canvas) }
            bytes = try encoder.encode(canvas, colorimetry: scaler.colorimetry, width: width, height: height)
            picturesEncoded += 1
        }
        let packet = try makePacket(bytes, pts: pts)
        last = (frame, packet)
        try stage.write(packet)
        packetsWritten += 1
    }

    /// Writes the last packet again at `fileTime` (a picture dropped on the way: its slot repeats the one before).
    /// Nothing happens before the first picture.
    func repeatLast(at fileTime: MediaTime, to stage: any EncodedPacketSink) throws {
        guard let last else { return }
        try writeAgain(last.packet, pts: presentationTimestamp(for: fileTime), to: stage)
    }

    /// The stream's timestamp for `fileTime`: rounded to 1/90000 and kept strictly increasing.
    private func presentationTimestamp(for fileTime: MediaTime) -> Int64 {
        var pts = (try? fileTime.rescaled(to: Self.timescale, rounding: .nearest).value) ?? (lastPTS ?? 0) + 1
        if let lastPTS, pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        return pts
    }

    /// The same picture: the same size, layout and pixels (arrays that share their storage compare at once).
    private static func samePicture(_ a: VideoFrame, _ b: VideoFrame) -> Bool {
        a.format == b.format && a.width == b.width && a.height == b.height && a.orientation == b.orientation
            && a.crop == b.crop && a.range == b.range && a.planes.count == b.planes.count
            && zip(a.planes, b.planes).allSatisfy { $0.stride == $1.stride && $0.bytes == $1.bytes }
    }

    /// A keyframe packet holding a copy of `bytes` at `pts`. The corresponding C function is `av_new_packet`.
    private func makePacket(_ bytes: [UInt8], pts: Int64) throws -> EncodedPacket {
        try FFmpegError.check(av_new_packet(scratch.packet, Int32(bytes.count)), "av_new_packet(jpeg \(bytes.count) bytes)")
        bytes.withUnsafeBytes { source in
            if let start = source.baseAddress { _ = memcpy(scratch.packet.pointee.data, start, source.count) }
        }
        return stamped(pts: pts)
    }

    /// The bytes of `packet` again at `pts`, sharing its buffer.
    private func writeAgain(_ packet: EncodedPacket, pts: Int64, to stage: any EncodedPacketSink) throws {
        try packet.reference(into: scratch.packet)
        try stage.write(stamped(pts: pts))
        packetsWritten += 1
    }

    /// The scratch packet, stamped at `pts` for one frame and flagged a keyframe, moved into an `EncodedPacket`.
    private func stamped(pts: Int64) -> EncodedPacket {
        let packet = scratch.packet
        packet.pointee.pts = pts
        packet.pointee.dts = pts
        packet.pointee.duration = frameDuration
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        return EncodedPacket(takingFrom: packet, stream: .video, timeBase: AVRational(num: 1, den: Self.timescale))
    }
}
