import CFFmpeg
import Foundation
import PauseCamCore

/// Everything that runs on the encoder thread: canvas scaling, the H.264 and AAC encoders and the fragmented
/// `.partial` muxer. Built by `MovieWriter` before its thread starts and used only by that thread afterwards (then,
/// once the thread has ended, by `finish`/`abort`).
///
/// Audio is encoded off that thread, on a serial worker of its own (issue 13): AAC costs about a tenth of what
/// ultrafast x264 does, and on the encoder thread it delayed every next picture handed to x264's frame threads.
/// Chunks keep their order on the worker; the muxer, shared by both, is used under `muxerLock`, and its interleaver
/// puts the two streams in order. `finish`, `abandon` and `waitForAudio` first wait for the worker to be idle, so
/// after them the audio encoder is the caller's again. An audio error is kept and thrown by the next call.
final class EncodingPipeline: @unchecked Sendable {
    let muxer: PartialMovieMuxer
    let scaler: CanvasScaler
    let video: VideoEncoder
    let audio: AudioEncoder?
    private let videoStream: Int32
    private let audioStream: Int32
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

    /// The serial worker that encodes audio chunks, in order.
    private let audioWorker = DispatchQueue(label: "PauseCam audio encoder")
    /// Bounds the chunks waiting on the worker (the encoder thread waits past it; AAC is far faster than real time).
    private let audioSlots = DispatchSemaphore(value: 512)
    /// Serializes the muxer between the encoder thread and the audio worker; also guards `audioFailure`.
    private let muxerLock = NSLock()
    private var audioFailure: Error?

    /// The last canvas picture encoded, kept (owned here) so a frame whose picture was dropped can repeat it.
    private var lastPicture: UnsafeMutablePointer<AVFrame>?

    deinit {
        av_frame_free(&lastPicture)
    }

    /// Scales and encodes one frame. A compressed frame (JPEG) is decoded here first, on the encoder thread: only
    /// frames that reach the movie are decoded. One that does not decode (a torn transfer; the camera only checks
    /// the JPEG's start) repeats the previous picture, so the movie keeps its constant rate.
    func encodeVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws {
        if frame.format.isCompressed, (try? scaler.decompressed(frame)) == nil {
            undecodablePictures += 1
            guard let lastPicture else { return }
            return try video.encode(lastPicture, at: fileTime, keyframe: keyframe, emit: writeVideo)
        }
        // A JPEG is drawn from the picture just decoded (the scaler keeps it), straight from libavcodec's buffers.
        let picture = try scaler.scale(frame)
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

    /// Hands one audio chunk to the audio worker, which places and encodes it (ignored for a video-only movie).
    /// Throws the worker's error, if an earlier chunk failed.
    func encodeAudio(_ chunk: AudioChunk) throws {
        guard audio != nil else { return }
        try throwAudioFailure()
        audioSlots.wait()
        audioWorker.async { [self] in
            defer { audioSlots.signal() }
            muxerLock.lock()
            let failed = audioFailure != nil
            muxerLock.unlock()
            guard !failed else { return }
            do {
                try audio?.append(chunk, emit: writeAudio)
            } catch {
                muxerLock.lock()
                audioFailure = error
                muxerLock.unlock()
            }
        }
    }

    /// Waits until every audio chunk handed over has been encoded and muxed.
    func waitForAudio() {
        audioWorker.sync {}
    }

    private func throwAudioFailure() throws {
        muxerLock.lock()
        defer { muxerLock.unlock() }
        if let audioFailure { throw audioFailure }
    }

    /// Flushes both encoders and writes the trailer.
    func finish() throws {
        waitForAudio()
        try throwAudioFailure()
        try video.flush(emit: writeVideo)
        try audio?.flush(emit: writeAudio)
        try muxer.finish()
    }

    /// Writes the trailer of what is already muxed (the encoders' delayed frames are lost) and closes the file.
    func abandon() {
        waitForAudio()
        try? muxer.finish()
        muxer.close()
    }

    private func writeVideo(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        muxerLock.lock()
        defer { muxerLock.unlock() }
        try muxer.write(packet, timeBase: video.context.pointee.time_base, stream: videoStream)
    }

    private func writeAudio(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        guard let audio else { return }
        muxerLock.lock()
        defer { muxerLock.unlock() }
        try muxer.write(packet, timeBase: audio.context.pointee.time_base, stream: audioStream)
    }
}
