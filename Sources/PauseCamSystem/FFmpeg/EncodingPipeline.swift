import CFFmpeg
import Foundation
import PauseCamCore

/// Everything that runs behind `MovieWriter`'s encoder thread: canvas drawing, the H.264 and AAC encoders and the
/// fragmented `.partial` muxer. Built by `MovieWriter` before its thread starts; its `encode…`/`repeatVideo` calls
/// come from that one thread; `finish`/`abandon` after it has ended.
///
/// Three stages overlap: the calling thread decodes and draws each picture onto a canvas (scaling and
/// the BT.709 matrix); a serial video worker hands the canvases to x264 and muxes its packets; a serial audio worker
/// encodes AAC. Drawing the next picture while x264 takes the last keeps x264's frame threads fed: on the calling
/// thread, the drawing delayed every next picture handed to x264 (and AAC had before it moved off). At most
/// `picturesInFlight` drawn canvases wait for x264, so memory stays bounded and the caller waits when x264 is
/// behind (as it did when it called x264 itself). The muxer, shared by both workers, is used under `muxerLock`, and
/// its interleaver puts the two streams in order. `finish`, `abandon` and `waitForWorkers` first wait for both
/// workers to be idle, so after them the encoders are the caller's again. A worker's error is kept and thrown by the
/// next call.
/// Unchecked Sendable: the FFmpeg objects are each used by one worker at a time, the muxer under `muxerLock`.
final class EncodingPipeline: @unchecked Sendable {
    let muxer: PartialMovieMuxer
    let scaler: CanvasScaler
    let video: VideoEncoder
    let audio: AudioEncoder?
    private let videoStream: Int32
    private let audioStream: Int32
    /// Compressed frames that did not decode and were replaced by the previous picture (the calling thread's).
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

    /// The serial worker that hands canvases to x264, in order, and muxes the packets.
    private let videoWorker = DispatchQueue(label: "PauseCam x264")
    /// Canvases drawn and not yet taken by x264: enough for the drawing of the next picture to overlap x264's
    /// intake of the last, few enough that a picture waits at most two frames (and 6 MB at 1080p) for x264.
    static let picturesInFlight = 2
    private let videoSlots = DispatchSemaphore(value: EncodingPipeline.picturesInFlight)
    private var videoFailure: Error?
    /// Whether a picture was ever drawn (the calling thread's): a repeat before the first picture does nothing.
    private var hasPicture = false

    /// The last canvas picture encoded, kept (owned by the video worker) so a frame whose picture was dropped, or
    /// did not decode, can repeat it.
    private var lastPicture: UnsafeMutablePointer<AVFrame>?

    deinit {
        av_frame_free(&lastPicture)
    }

    /// Draws one frame onto a canvas here and hands it to the video worker for x264. A compressed frame (JPEG) is
    /// decoded here first: only frames that reach the movie are decoded. One that does not decode (a torn
    /// transfer; the camera only checks the JPEG's start) repeats the previous picture, so the movie keeps its
    /// constant rate. Waits while `picturesInFlight` canvases wait for x264; throws the worker's error, if an
    /// earlier picture failed.
    func encodeVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws {
        try throwWorkerFailure()
        if frame.format.isCompressed, (try? scaler.decompressed(frame)) == nil {
            undecodablePictures += 1
            return try repeatVideo(at: fileTime, keyframe: keyframe)
        }
        // A JPEG is drawn from the picture just decoded (the scaler keeps it), straight from libavcodec's buffers.
        let handOff = CanvasHandOff(picture: try scaler.scale(frame))
        hasPicture = true
        videoSlots.wait()
        videoWorker.async { [self] in
            defer { videoSlots.signal() }
            if let previous = lastPicture { scaler.recycle(previous) }
            lastPicture = handOff.picture
            encodeOnWorker(handOff.picture, at: fileTime, keyframe: keyframe)
        }
    }

    /// Encodes the last picture again at `fileTime`: the frame of a picture the encoder had no time for. The movie
    /// keeps its constant rate, and x264 codes an unchanged picture in almost no time and bits. Nothing happens
    /// before the first picture (the movie then starts later, as the retimer's first frame does).
    func repeatVideo(at fileTime: MediaTime) throws {
        try throwWorkerFailure()
        try repeatVideo(at: fileTime, keyframe: false)
    }

    private func repeatVideo(at fileTime: MediaTime, keyframe: Bool) throws {
        guard hasPicture else { return }
        videoSlots.wait()
        videoWorker.async { [self] in
            defer { videoSlots.signal() }
            guard let lastPicture else { return }
            encodeOnWorker(lastPicture, at: fileTime, keyframe: keyframe)
        }
    }

    /// Holds the video worker until the returned semaphore is signalled (tests: pictures then pile up in flight).
    func holdVideoWorker() -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        videoWorker.async { release.wait() }
        return release
    }

    /// x264 on the video worker; an error stops video encoding and is kept for the caller.
    private func encodeOnWorker(_ picture: UnsafeMutablePointer<AVFrame>, at fileTime: MediaTime, keyframe: Bool) {
        muxerLock.lock()
        let failed = videoFailure != nil
        muxerLock.unlock()
        guard !failed else { return }
        do {
            try video.encode(picture, at: fileTime, keyframe: keyframe, emit: writeVideo)
        } catch {
            muxerLock.lock()
            videoFailure = error
            muxerLock.unlock()
        }
    }

    /// Hands one audio chunk to the audio worker, which places and encodes it (ignored for a video-only movie).
    /// Throws the worker's error, if an earlier chunk failed.
    func encodeAudio(_ chunk: AudioChunk) throws {
        guard audio != nil else { return }
        try throwWorkerFailure()
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

    /// Waits until every picture and audio chunk handed over has been encoded and muxed.
    func waitForWorkers() {
        videoWorker.sync {}
        audioWorker.sync {}
    }

    /// The first error either worker met, if any.
    private func throwWorkerFailure() throws {
        muxerLock.lock()
        defer { muxerLock.unlock() }
        if let videoFailure { throw videoFailure }
        if let audioFailure { throw audioFailure }
    }

    /// Flushes both encoders and writes the trailer.
    func finish() throws {
        waitForWorkers()
        try throwWorkerFailure()
        try video.flush(emit: writeVideo)
        try audio?.flush(emit: writeAudio)
        try muxer.finish()
    }

    /// Writes the trailer of what is already muxed (the encoders' delayed frames are lost) and closes the file.
    func abandon() {
        waitForWorkers()
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

/// A drawn canvas on its way from the drawing thread to the video worker, which owns it from then on (no thread
/// touches it while the other does).
/// Unchecked Sendable: carries an AVFrame from the drawing thread to the video worker, which owns it from then on.
private struct CanvasHandOff: @unchecked Sendable {
    let picture: UnsafeMutablePointer<AVFrame>
}
