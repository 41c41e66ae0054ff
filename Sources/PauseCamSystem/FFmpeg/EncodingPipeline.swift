import CFFmpeg
import PauseCamCore

/// Everything that runs on the encoder thread: canvas scaling, the H.264 and AAC encoders and the fragmented
/// `.partial` muxer. Built by `MovieWriter` before its thread starts and used only by that thread afterwards (then,
/// once the thread has ended, by `finish`/`abort`), so it needs no lock.
final class EncodingPipeline {
    let muxer: PartialMovieMuxer
    let scaler: CanvasScaler
    let video: VideoEncoder
    let audio: AudioEncoder?
    private let videoStream: Int32
    private let audioStream: Int32
    /// Packets written per stream (for the summary).
    private(set) var videoPacketsWritten = 0
    /// Compressed frames that did not decode and were replaced by the previous picture.
    private(set) var undecodablePictures = 0

    /// Opens the encoders and writes the `.partial` header.
    init(partialPath: String, settings: MovieSettings) throws {
        let muxer = try PartialMovieMuxer(path: partialPath, container: settings.container)
        let globalHeader = muxer.wantsGlobalHeader
        let video = try VideoEncoder(settings: settings, globalHeader: globalHeader)
        let audio = try settings.audio.map { try AudioEncoder(settings: $0, globalHeader: globalHeader) }
        videoStream = try muxer.addStream(from: video.context)
        audioStream = try audio.map { try muxer.addStream(from: $0.context) } ?? -1
        try muxer.open(container: settings.container)
        self.muxer = muxer
        self.video = video
        self.audio = audio
        scaler = CanvasScaler(width: settings.width, height: settings.height)
    }

    /// The last canvas picture encoded, kept (owned here) so a frame whose picture was dropped can repeat it.
    private var lastPicture: UnsafeMutablePointer<AVFrame>?

    deinit {
        av_frame_free(&lastPicture)
    }

    /// Scales and encodes one frame. A compressed frame (JPEG) is decoded here first, on the encoder thread: only
    /// frames that reach the movie are decoded. One that does not decode (a torn transfer; the camera only checks
    /// the JPEG's start) repeats the previous picture, so the movie keeps its constant rate.
    func encodeVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws {
        var source = frame
        if frame.format.isCompressed {
            guard let decoded = try? scaler.decompressed(frame) else {
                undecodablePictures += 1
                guard let lastPicture else { return }
                return try video.encode(lastPicture, at: fileTime, keyframe: keyframe, emit: writeVideo)
            }
            source = decoded
        }
        let picture = try scaler.scale(source)
        if let previous = lastPicture { scaler.recycle(previous) }
        lastPicture = picture
        try video.encode(picture, at: fileTime, keyframe: keyframe, emit: writeVideo)
    }

    /// Encodes the last picture again at `fileTime`: the frame of a picture the encoder had no time for. The movie
    /// keeps its constant rate, and x264 codes an unchanged picture in almost no time and bits. Nothing happens
    /// before the first picture (the movie then starts later, as the retimer's first frame does).
    func repeatVideo(at fileTime: MediaTime) throws {
        guard let lastPicture else { return }
        try video.encode(lastPicture, at: fileTime, keyframe: false, emit: writeVideo)
    }

    /// Places and encodes one audio chunk (ignored for a video-only movie).
    func encodeAudio(_ chunk: AudioChunk) throws {
        try audio?.append(chunk, emit: writeAudio)
    }

    /// Flushes both encoders and writes the trailer.
    func finish() throws {
        try video.flush(emit: writeVideo)
        try audio?.flush(emit: writeAudio)
        try muxer.finish()
    }

    /// Writes the trailer of what is already muxed (the encoders' delayed frames are lost) and closes the file.
    func abandon() {
        try? muxer.finish()
        muxer.close()
    }

    private func writeVideo(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        videoPacketsWritten += 1
        try muxer.write(packet, timeBase: video.context.pointee.time_base, stream: videoStream)
    }

    private func writeAudio(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        guard let audio else { return }
        try muxer.write(packet, timeBase: audio.context.pointee.time_base, stream: audioStream)
    }
}
