import CFFmpeg
import Foundation
import PauseCamCore

/// Everything that runs behind `MovieWriter`'s encoder thread: canvas drawing, the H.264 and AAC encoders and the
/// fragmented `.partial` muxer. Built by `MovieWriter` before its thread starts; its `encode…`/`repeatVideo` calls
/// come from that one thread; `finish`/`abandon` after it has ended. The owner ends every pipeline with `finish` or
/// `abandon`: its two threads hold it until then.
///
/// Stages, each on its own thread: the calling thread decodes and draws each picture onto a canvas (scaling and
/// the BT.709 matrix); the x264 thread hands the canvases to x264; the audio thread encodes AAC (one encoder per
/// audio track, fed the same frames: `AudioEncoder`). The two encoder
/// stages hand their `EncodedPacket`s to the packet stage (`packets`, the `.partial`'s `PartialMuxerStage`), which
/// they know only as an `EncodedPacketSink`: another taker of packets plugs in there, not in the encoders.
///
/// A movie whose `videoCoding` is `jpegPassThrough` (the ISO of an MJPEG lens) has no x264 and no x264 thread: its
/// `JPEGPassThrough` stage writes the camera's JPEGs as packets on the calling thread, which only copies bytes.
///
/// An ISO's pipeline has no AAC encoder either: its sound is the program's (`CopiedSound`, every track of it),
/// whose audio thread hands every AAC packet to the ISO's packet channel (`SharedAudioTrack`); the ISO's audio
/// thread only muxes them, each into its track's stream. The program's pipeline, in turn, hands every packet its audio thread makes to its `sharedAudio` as well.
///
/// Drawing the next picture while x264 takes the last keeps x264's frame threads fed: on the calling thread, the
/// drawing delayed every next picture handed to x264 (and AAC had before it moved off). Drawn canvases reach the
/// x264 thread through a `BoundedChannel` under `.block`: at most `picturesInFlight` of them are drawn and not yet
/// encoded (one in x264's hands, the rest waiting), so memory stays bounded and the caller waits when x264 is behind
/// (as it did when it called x264 itself). Audio chunks reach the audio thread through a channel of their own,
/// which `MovieWriter` may hand in (so chunks wait there while the pipeline opens). The muxer stage, shared by both
/// encoder threads, serializes itself, and its interleaver puts the two streams in order. `finish` and `abandon`
/// first wait for both threads to end, so after them the encoders are the caller's again. A thread's error is kept
/// and thrown by the next call.
/// Unchecked Sendable: the FFmpeg objects are each used by one thread at a time (the muxer inside its stage's lock);
/// the threads' failures are one `Guarded` value.
final class EncodingPipeline: @unchecked Sendable {
    /// Work for the x264 thread, in order.
    private enum VideoWork: Sendable {
        case picture(CanvasHandOff, MediaTime, keyframe: Bool)
        /// The last picture again at this file time.
        case repeatLast(MediaTime, keyframe: Bool)
    }

    /// Where the encoders' packets go: the `.partial`'s muxer.
    let packets: PartialMuxerStage
    let scaler: CanvasScaler
    /// x264; `nil` when the pictures stay JPEG (`jpegs`).
    let video: VideoEncoder?
    /// The JPEG pass-through stage; `nil` when x264 encodes the pictures (`video`).
    let jpegs: JPEGPassThrough?
    let audio: AudioEncoder?
    /// The AAC tracks' formats, in order: the program's encoder's, or the program's copied into an ISO; none
    /// without sound.
    let audioFormats: [AudioTrackFormat]
    /// The program's packets on their way to an ISO's audio thread; `nil` when the pipeline encodes its own sound.
    private let copiedPackets: BoundedChannel<EncodedPacket>?
    /// Where the audio thread also hands every packet it encodes (the program's ISOs); `nil` for an ISO.
    private let sharedAudio: SharedAudioTrack?
    /// Samples of the program's first track's packets an ISO's audio thread muxed (its own; read after it ended).
    private var copiedSamples: Int64 = 0
    /// Compressed frames that did not decode and were replaced by the previous picture (the calling thread's).
    private(set) var undecodablePictures = 0

    /// Canvases drawn and not yet encoded: enough for the drawing of the next picture to overlap x264's intake of
    /// the last, few enough that a picture waits at most two frames (and 6 MB at 1080p) for x264.
    static let picturesInFlight = 2
    /// The canvases on their way to the x264 thread: `picturesInFlight` less the one x264 works on.
    private let pictures = BoundedChannel<VideoWork>(capacity: EncodingPipeline.picturesInFlight - 1, policy: .block)
    /// The chunks on their way to the audio thread.
    let audioChunks: BoundedChannel<AudioChunk>
    /// Chunks that may wait for the audio thread when the pipeline makes its own channel (AAC is far faster than
    /// real time; `MovieWriter` hands in a channel sized and answered by its own rules).
    static let audioChunksInFlight = 512
    private let videoThreadEnded = DispatchGroup()
    private let audioThreadEnded = DispatchGroup()
    /// Sees the x264 and audio threads' work (`SystemHooks`); `nil` in the program's normal runs.
    private let hooks: (any SystemHooks)?
    /// The first error each thread met; either stops that thread's encoding and is thrown by the next call.
    private struct Failures {
        var video: Error?
        var audio: Error?
    }

    private let failures = Guarded(Failures())
    /// Whether a picture was ever drawn (the calling thread's): a repeat before the first picture does nothing.
    private var hasPicture = false

    /// The last canvas picture encoded, kept (owned by the x264 thread) so a frame whose picture was dropped, or
    /// did not decode, can repeat it.
    private var lastPicture: UnsafeMutablePointer<AVFrame>?

    /// The program's sound taken into an ISO as it is: its tracks' formats (none: the program has no sound) and
    /// the channel its packets arrive on (its owner closes it when no more comes).
    struct CopiedSound {
        var formats: [AudioTrackFormat]
        var packets: BoundedChannel<EncodedPacket>
    }

    /// Opens the encoders, writes the `.partial` header and starts the x264 and audio threads. Audio is taken from
    /// `audioChunks` when given (its owner closes it when no more comes), else from a channel of the pipeline's own;
    /// with `copiedSound` (an ISO) there is no AAC encoder, and the audio thread muxes the program's packets.
    /// `sharedAudio` receives every packet the audio encoder makes, for the ISOs. `hooks` is a test's view into the
    /// two threads (or a fault injection); the program normally passes none.
    init(partialPath: String, settings: MovieSettings, audioChunks: BoundedChannel<AudioChunk>? = nil,
         copiedSound: CopiedSound? = nil, sharedAudio: SharedAudioTrack? = nil,
         hooks: (any SystemHooks)? = nil) throws {
        let muxer = try PartialMovieMuxer(path: partialPath, container: settings.container)
        let globalHeader = muxer.wantsGlobalHeader
        let passesJPEGThrough = settings.videoCoding == .jpegPassThrough
        let video = passesJPEGThrough ? nil : try VideoEncoder(settings: settings, globalHeader: globalHeader)
        let jpegs = passesJPEGThrough ? JPEGPassThrough(settings: settings) : nil
        let audio = copiedSound != nil ? nil
            : try settings.audio.map { try AudioEncoder(settings: $0, globalHeader: globalHeader) }
        let audioFormats = try copiedSound.map(\.formats)
            ?? (audio?.tracks ?? []).map { try AudioTrackFormat(encoder: $0) }
        let videoStream: Int32
        if let video {
            videoStream = try muxer.addStream(from: video.context)
        } else {
            videoStream = try muxer.addStream(timeBase: AVRational(num: 1, den: JPEGPassThrough.timescale),
                                              describe: { jpegs?.describe($0) })
        }
        let audioStreams = try audioFormats.enumerated().map { number, format in
            let stream = try muxer.addStream(timeBase: format.timeBase) {
                _ = avcodec_parameters_copy($0, format.parameters)
            }
            if let title = format.title { muxer.label(stream: stream, title: title, isDefault: number == 0) }
            return stream
        }
        try muxer.open(container: settings.container, minimumFragment: passesJPEGThrough ? 500_000 : nil)
        packets = PartialMuxerStage(muxer: muxer, videoStream: videoStream, audioStreams: audioStreams)
        self.video = video
        self.jpegs = jpegs
        self.audio = audio
        self.audioFormats = audioFormats
        copiedPackets = copiedSound?.packets
        self.sharedAudio = sharedAudio
        self.audioChunks = audioChunks ?? BoundedChannel(capacity: Self.audioChunksInFlight, policy: .block)
        self.hooks = hooks
        scaler = CanvasScaler(width: settings.width, height: settings.height, hooks: hooks)
        if video != nil { startThread("PauseCam x264", ended: videoThreadEnded) { [self] in runVideoThread() } }
        if copiedPackets != nil {
            startThread("PauseCam ISO sound", ended: audioThreadEnded) { [self] in runCopiedSoundThread() }
        } else {
            startThread("PauseCam audio encoder", ended: audioThreadEnded) { [self] in runAudioThread() }
        }
    }

    deinit {
        av_frame_free(&lastPicture)
    }

    private func startThread(_ name: String, ended: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        ended.enter()
        let thread = Thread {
            KernelThreadName.set(name)
            body()
            ended.leave()
        }
        thread.name = name
        thread.start()
    }

    /// Draws one frame onto a canvas here and hands it to the x264 thread. A compressed frame (JPEG) is
    /// decoded here first: only frames that reach the movie are decoded. One that does not decode (a torn
    /// transfer; the camera only checks the JPEG's start) repeats the previous picture, so the movie keeps its
    /// constant rate. Waits while `picturesInFlight` canvases wait for x264; throws the thread's error, if an
    /// earlier picture failed.
    func encodeVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws {
        try throwWorkerFailure()
        if let jpegs { return try jpegs.write(frame, at: fileTime, to: packets) }
        if frame.format.isCompressed, (try? scaler.decompressed(frame)) == nil {
            undecodablePictures += 1
            return try repeatVideo(at: fileTime, keyframe: keyframe)
        }
        // A JPEG is drawn from the picture just decoded (the scaler keeps it), straight from libavcodec's buffers.
        let handOff = CanvasHandOff(picture: try scaler.scale(frame))
        hasPicture = true
        if !pictures.send(.picture(handOff, fileTime, keyframe: keyframe)).isAccepted {
            scaler.recycle(handOff.picture)
        }
    }

    /// Encodes the last picture again at `fileTime`: the frame of a picture the encoder had no time for. The movie
    /// keeps its constant rate, and x264 codes an unchanged picture in almost no time and bits. Nothing happens
    /// before the first picture (the movie then starts later, as the retimer's first frame does).
    func repeatVideo(at fileTime: MediaTime) throws {
        try throwWorkerFailure()
        if let jpegs { return try jpegs.repeatLast(at: fileTime, to: packets) }
        try repeatVideo(at: fileTime, keyframe: false)
    }

    private func repeatVideo(at fileTime: MediaTime, keyframe: Bool) throws {
        guard hasPicture else { return }
        pictures.send(.repeatLast(fileTime, keyframe: keyframe))
    }

    /// The x264 thread: encodes every picture and repeat in order until the channel closes; after an error it only
    /// drains, so the caller never waits forever.
    private func runVideoThread() {
        while let work = pictures.receive() {
            hooks?.willHandle(.x264)
            switch work {
            case let .picture(handOff, fileTime, keyframe):
                if let previous = lastPicture { scaler.recycle(previous) }
                lastPicture = handOff.picture
                encodeOnWorker(handOff.picture, at: fileTime, keyframe: keyframe)
            case let .repeatLast(fileTime, keyframe):
                if let lastPicture { encodeOnWorker(lastPicture, at: fileTime, keyframe: keyframe) }
            }
            hooks?.didHandle(.x264)
        }
    }

    /// x264 on the x264 thread; an error stops video encoding and is kept for the caller.
    private func encodeOnWorker(_ picture: UnsafeMutablePointer<AVFrame>, at fileTime: MediaTime, keyframe: Bool) {
        guard let video, failures.withLock({ $0.video == nil }) else { return }
        do {
            try video.encode(picture, at: fileTime, keyframe: keyframe, emit: packets.write)
        } catch {
            failures.withLock { $0.video = error }
        }
    }

    /// Hands one audio chunk to the audio thread, which places and encodes it (ignored for a video-only movie).
    /// Throws the thread's error, if an earlier chunk failed.
    func encodeAudio(_ chunk: AudioChunk) throws {
        guard audio != nil else { return }
        try throwWorkerFailure()
        audioChunks.send(chunk)
    }

    /// The audio thread: encodes every chunk in order until the channel closes; after an error it only drains.
    private func runAudioThread() {
        while let chunk = audioChunks.receive() {
            hooks?.willHandle(.audio)
            if let audio, failures.withLock({ $0.audio == nil }) {
                do {
                    try audio.append(chunk, emit: emitAudio)
                } catch {
                    failures.withLock { $0.audio = error }
                }
            }
            hooks?.didHandle(.audio)
        }
    }

    /// An AAC packet of this pipeline's encoder: into the `.partial`, then to the ISOs.
    private func emitAudio(_ packet: EncodedPacket) throws {
        try packets.write(packet)
        sharedAudio?.write(packet)
    }

    /// An ISO's audio thread: muxes the program's packets in order until the channel closes; after an error it
    /// only drains, so the program's audio thread never waits on it.
    private func runCopiedSoundThread() {
        guard let copiedPackets else { return }
        while let packet = copiedPackets.receive() {
            hooks?.willHandle(.audio)
            if failures.withLock({ $0.audio == nil }) {
                do {
                    try packets.write(packet)
                    if packet.stream == .audio(track: 0) { copiedSamples += packet.duration }
                } catch {
                    failures.withLock { $0.audio = error }
                }
            }
            hooks?.didHandle(.audio)
        }
    }

    /// Sample frames in the movie's sound (its first track's; every track has as many): encoded here, or the
    /// program's packets muxed.
    var audioSamplesWritten: Int { audio?.samplesWritten ?? Int(copiedSamples) }

    /// Ends both threads once they have done everything handed over (the calling thread's, before it flushes).
    private func endThreads() {
        pictures.close()
        audioChunks.close()
        copiedPackets?.close()
        videoThreadEnded.wait()
        audioThreadEnded.wait()
    }

    /// The first error either thread met, if any.
    private func throwWorkerFailure() throws {
        if let failure = failures.withLock({ $0.video ?? $0.audio }) { throw failure }
    }

    /// Video frames in the movie: encoded by x264, or JPEG packets written.
    var videoFramesWritten: Int { video?.framesEncoded ?? jpegs?.packetsWritten ?? 0 }

    /// Flushes both encoders and writes the trailer.
    func finish() throws {
        endThreads()
        try throwWorkerFailure()
        try video?.flush(emit: packets.write)
        try audio?.flush(emit: emitAudio)
        try packets.finish()
    }

    /// Writes the trailer of what is already muxed (the encoders' delayed frames are lost) and closes the file.
    func abandon() {
        endThreads()
        try? packets.finish()
        packets.close()
    }
}

/// A drawn canvas on its way from the drawing thread to the x264 thread, which owns it from then on (no thread
/// touches it while the other does).
/// Unchecked Sendable: carries an AVFrame from the drawing thread to the x264 thread, which owns it from then on.
private struct CanvasHandOff: @unchecked Sendable {
    let picture: UnsafeMutablePointer<AVFrame>
}
