import Foundation
import PauseCamCore

/// The FFmpeg movie writer behind Core's `MovieSink` port: H.264 (or a lens's JPEGs as they came, for
/// `MovieSettings.VideoCoding.jpegPassThrough`) + AAC into a crash-safe fragmented `.partial`
/// while recording, remuxed with chapters into the final seekable movie on `finish`.
///
/// Threads: the recorder calls `appendVideo`/`appendAudio` on its serial context; they only hand over. One encoder
/// thread (started in `init`, owned by the writer) first opens the FFmpeg objects (x264, the AAC encoder, the
/// muxer and its file header: slow on a slow machine, so never on the serial context), then takes video jobs from a
/// `BoundedChannel` and owns those objects until it ends; audio chunks go through a channel of their own straight
/// to the pipeline's audio thread. While it opens, the video channel takes up to a second of frames, as the
/// devices' mailboxes would; an open that fails is thrown by the next append, or by `finish`. The channels' policy
/// is the clock's: with `blockWhenBehind` (simulated clock) `.block`, so a full channel makes the caller wait and
/// nothing is lost; otherwise `.refuse`: a video frame that finds the channel full has its picture dropped and
/// counted (a keyframe it asked for moves to the next frame), and its place in the movie repeats the picture
/// before it, so the movie keeps its constant rate (a repeat is a job without pixels and without weight, so the
/// channel never refuses it). Audio has a limit of its own (seconds of chunks, far more than waits behind eight
/// frames): on the real clock a chunk that finds no room is dropped and counted (the audio encoder fills the hole
/// with silence, so sync holds), because blocking the recorder's serial context would delay every command and let
/// frames pile up in front of it. Memory stays bounded by the limits, but for the repeats, a few bytes each for as
/// long as the encoder stays behind. An encoder error stops encoding and is thrown by the next append, or by
/// `finish`.
/// An ISO's writer (`init`'s `soundOf`) encodes no sound: it takes the program writer's AAC packets as they are
/// (`SharedAudioTrack`), through a packet channel with the same limit and policy as the audio chunks' (on the real
/// clock a packet that finds no room is dropped and counted), and ignores the chunks `appendAudio` hands it.
/// The owner must end every writer with `finish` or `abort`: the encoder thread holds the writer until then.
/// Sendable: what the serial context, the encoder thread and `finish` share is one `Guarded` value; the FFmpeg
/// objects are the pipeline's, and never leave its threads until it ends.
public final class MovieWriter: MovieSink {
    /// One unit of work for the encoder thread.
    enum Job: Sendable {
        case video(VideoFrame, MediaTime, keyframe: Bool)
        /// The picture before, again, at this file time: a frame whose picture was dropped.
        case repeatVideo(MediaTime)

        /// Only pictures take room: a repeat must never be refused.
        var weight: Int { if case .video = self { return 1 } else { return 0 } }
    }

    public let moviePath: String
    public let partialPath: String
    /// Where the thumbnail goes (`NAME.jpg`).
    public let thumbnailPath: String
    let settings: MovieSettings
    /// Video frames that may wait in the channel before the caller waits or drops.
    let videoQueueLimit: Int
    /// Audio chunks that may wait (audio has its own limit; ~10 s of the microphone's 10–20 ms chunks).
    let audioQueueLimit: Int

    /// The video jobs for the encoder thread: `openingQueueLimit` pictures while it opens, `videoQueueLimit` after.
    private let videoJobs: BoundedChannel<Job>
    /// The audio chunks for the pipeline's audio thread, so the ~1.5 chunks per frame do not eat the video slack.
    private let audioJobs: BoundedChannel<AudioChunk>
    /// Every AAC packet this writer's encoder makes goes here too, for the clip's ISOs (`soundOf`).
    let sharedAudio = SharedAudioTrack()
    /// An ISO's: the program's track, and the channel its packets arrive on for the pipeline's audio thread.
    private let programSound: (track: SharedAudioTrack, packets: BoundedChannel<EncodedPacket>)?
    private let threadEnded = DispatchSemaphore(value: 0)
    /// What the serial context (appends), the encoder thread (open, errors) and `finish` share.
    private struct State {
        /// The first error: the open's or the encoder's; thrown by the next append or `finish`.
        var failure: Error?
        /// Video frames whose picture found no room (real clock).
        var dropped = 0
        /// Audio sample frames that found no room (real clock).
        var droppedAudio = 0
        /// A keyframe was asked for on a dropped frame: the next frame that gets in carries it.
        var keyframeOwed = false
        var thumbnail: VideoFrame?
        /// The finished movie's timecode track (`setTimecode`); `nil`: none.
        var timecode: MovieIndexWriter.TimecodeTrack?
        /// `finish` or `abort` has begun.
        var ended = false
        /// Made by the encoder thread once it has opened the movie; after `finish` or `abort`, the caller's. `nil`
        /// before the open, and for good when it failed.
        var pipeline: EncodingPipeline?
    }

    private let state = Guarded(State())
    /// Receives problems that do not fail the movie (a thumbnail that could not be written).
    private let warn: @Sendable (String) -> Void
    /// Video frames that may wait while the encoder thread still opens the movie: a second of them.
    let openingQueueLimit: Int
    /// The `.partial` opened read-only beside the encoder's own descriptor, to notice its deletion (`fstat`'s
    /// link count drops to 0); `nil` if it could not be opened.
    private let partialWatch: FileDescriptor?
    /// mov/mp4 are finished in place (`InPlaceMovieFinisher`); `false` copies them (`ChapterRemuxer`), as the
    /// benchmark and the comparison tests do.
    let finishesInPlace: Bool
    /// In place for mov/mp4 unless finishing by a copy is asked for; mkv is always copied (`finishMovie`).
    public var finishing: MovieFinishing { settings.container != .mkv && finishesInPlace ? .inPlace : .byCopy }
    /// Fault injection and tests' views into the encoding threads (the encoder thread's here, the pipeline's
    /// there, the finish); `nil` in the program's normal runs.
    private let hooks: (any SystemHooks)?

    /// How much work may wait for the writer's threads.
    struct QueueLimits: Sendable {
        /// Video frames that may wait once the encoders are open.
        var video = 8
        /// Video frames that may wait while the encoder thread still opens the movie; `nil`: a second of frames,
        /// at least `video`.
        var opening: Int?
        /// Audio chunks (or an ISO's program packets) that may wait.
        var audio = 1000
    }

    /// Starts the encoder thread, which opens the encoders on the reserved `.partial` before it takes any job.
    /// `limits` is the room in the writer's channels. `hooks` is a fault injection or a test's view into the
    /// encoding threads; the program normally passes none. With `soundOf` (an ISO's writer, made before the
    /// program's writer gets any sound) the movie's sound is that writer's AAC packets.
    init(paths: MovieNameReserver.Reservation, settings: MovieSettings, limits: QueueLimits = QueueLimits(),
         warn: @escaping @Sendable (String) -> Void = { _ in }, finishesInPlace: Bool = true,
         soundOf program: MovieWriter? = nil, hooks: (any SystemHooks)? = nil) {
        self.finishesInPlace = finishesInPlace
        self.audioQueueLimit = max(1, limits.audio)
        self.hooks = hooks
        self.warn = warn
        moviePath = paths.moviePath
        partialPath = paths.partialPath
        thumbnailPath = paths.thumbnailPath
        self.settings = settings
        self.videoQueueLimit = max(1, limits.video)
        let framesPerSecond = Int((Double(settings.rate.numerator) / Double(max(1, settings.rate.denominator))).rounded(.up))
        self.openingQueueLimit = limits.opening.map { max(1, $0) } ?? max(self.videoQueueLimit, framesPerSecond)
        partialWatch = try? FileDescriptor.open(paths.partialPath, O_RDONLY | O_CLOEXEC)
        let policy: BoundedChannelPolicy = settings.blockWhenBehind ? .block : .refuse
        videoJobs = BoundedChannel(capacity: self.openingQueueLimit, policy: policy, weight: \.weight)
        audioJobs = BoundedChannel(capacity: self.audioQueueLimit, policy: policy)
        let packetLimit = self.audioQueueLimit
        programSound = program.map { ($0.sharedAudio, BoundedChannel(capacity: packetLimit, policy: policy)) }
        if let programSound {
            let packets = programSound.packets
            programSound.track.subscribe { [weak self] packet in
                // Every track loses the packets of the same instants: the sound lost is counted once, in the
                // first track's samples (as `MovieSummary` counts it).
                if packets.send(packet) == .refused, packet.stream == .audio(track: 0) {
                    self?.noteDroppedAudio(Int(packet.duration))
                }
            }
        }
        let thread = Thread { [self] in runEncoder(open()) }
        thread.name = "PauseCam encoder"
        thread.start()
    }

    public var droppedVideoFrames: Int { state.withLock { $0.dropped } }

    public func appendVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws {
        try throwIfFailed()
        let wantsKeyframe = state.withLock { keyframe || $0.keyframeOwed }
        let accepted = videoJobs.send(.video(frame, fileTime, keyframe: wantsKeyframe)).isAccepted
        // A frame whose picture finds no room keeps its place: the encoder repeats the picture before. The repeat
        // weighs nothing, so the channel never refuses it: a refused one would leave a hole in the movie's
        // constant rate.
        if !accepted { videoJobs.send(.repeatVideo(fileTime)) }
        state.withLock { state in
            if accepted {
                state.keyframeOwed = false
            } else if !state.ended {
                state.dropped += 1
                state.keyframeOwed = wantsKeyframe
            }
        }
    }

    public var partialFileDeleted: Bool {
        guard let partialWatch, let links = try? partialWatch.linkCount() else { return false }
        return links == 0
    }

    public func setThumbnail(_ frame: VideoFrame) {
        state.withLock { $0.thumbnail = frame }
    }

    public func setTimecode(startFrame: Int64) {
        let rate = settings.rate
        state.withLock { $0.timecode = MovieIndexWriter.TimecodeTrack(startFrame: startFrame, rate: rate) }
    }

    public func appendAudio(_ chunk: AudioChunk) throws {
        try throwIfFailed()
        guard programSound == nil else { return }
        if audioJobs.send(chunk) == .refused { noteDroppedAudio(chunk.frameCount) }
    }

    /// True for an ISO's writer: its sound is the program writer's packets, so it needs no chunks.
    public var takesProgramSound: Bool { programSound != nil }
    /// AAC-LC's packet: 1024 samples, the encoder's `frame_size`, whatever the rate; the finish cuts a retake's sound
    /// at these (`WholePacketAudioCut`). No sound, nothing to cut.
    public var audioPacketSamples: Int { settings.audio == nil ? 0 : 1024 }

    private func noteDroppedAudio(_ samples: Int) {
        state.withLock { $0.droppedAudio += samples }
    }

    public func finish(chapters: [Chapter]) throws -> MovieSummary {
        try finish(chapters: chapters, discarding: [])
    }

    public func finish(chapters: [Chapter], discarding spans: [Range<MediaTime>]) throws -> MovieSummary {
        try endThread(discarding: false)
        let (encoderFailure, opened) = state.withLock { ($0.failure, $0.pipeline) }
        guard let pipeline = opened else {
            // The movie never opened: nothing was recorded, and an empty `.partial` must not look like a crash's.
            unlink(partialPath)
            throw encoderFailure ?? MovieWriterError(description: "the movie \(moviePath) was never opened")
        }
        do {
            if let encoderFailure { throw encoderFailure }
            try pipeline.finish()
        } catch {
            // Keep the crash-safe promise on this path too: the `.partial` gets the trailer of what was muxed.
            pipeline.abandon()
            throw error
        }
        hooks?.willFinishMovie(moviePath)
        let audioLeftOut = try finishMovie(chapters: chapters, discarding: spans, pipeline: pipeline)
        unlink(partialPath)
        let (frame, droppedCount, droppedAudioCount) = state.withLock { ($0.thumbnail, $0.dropped, $0.droppedAudio) }
        var writtenThumbnail: String?
        if let frame {
            do {
                try ThumbnailWriter(canvasWidth: settings.width, canvasHeight: settings.height)
                    .write(frame, to: thumbnailPath)
                writtenThumbnail = thumbnailPath
            } catch {
                warn("the movie \(moviePath) is complete, but its thumbnail was not written: \(error)")
            }
        }
        var summary = MovieSummary(path: moviePath, videoFramesWritten: pipeline.videoFramesWritten,
                                   videoFramesDropped: droppedCount,
                                   audioSamplesWritten: max(0, pipeline.audioSamplesWritten - audioLeftOut),
                                   audioSamplesDropped: droppedAudioCount, thumbnailPath: writtenThumbnail)
        if let corrector = pipeline.audio?.corrector {
            summary.audioStalls = AudioStallReport(count: corrector.stalls, silenceSamples: corrector.silenceInserted,
                                                   droppedSamples: corrector.samplesDropped)
        }
        return summary
    }

    /// Makes the final movie from the complete `.partial`: in place for mov/mp4 (`InPlaceMovieFinisher`: no copy
    /// of the media, only a new index appended), by a copy (`ChapterRemuxer`) for mkv or when the file is not the
    /// fragmented movie the in-place finish expects (it then has written nothing). Returns the audio samples the
    /// discarded spans left out.
    private func finishMovie(chapters: [Chapter], discarding spans: [Range<MediaTime>],
                             pipeline: EncodingPipeline) throws -> Int {
        if settings.container != .mkv && finishesInPlace {
            var finisher = InPlaceMovieFinisher(partialPath: partialPath, moviePath: moviePath,
                                                container: settings.container, hooks: hooks)
            finisher.edit.discardedSpans = spans
            finisher.timecode = state.withLock { $0.timecode }
            if let audio = pipeline.audioFormats.first {
                finisher.edit.audioPrimingSamples = audio.primingSamples
                finisher.edit.audioSampleRate = audio.sampleRate
                finisher.edit.audioPacketSamples = audio.packetSamples
            }
            do {
                return try finisher.finish(chapters: chapters).audioSamplesLeftOut
            } catch let error as FragmentedMovieIndex.IndexError {
                warn("\(moviePath): finishing by a copy, the .partial could not be indexed in place (\(error))")
            }
        }
        var remuxer = ChapterRemuxer(inputPath: partialPath, outputPath: moviePath, container: settings.container)
        remuxer.videoFrameDuration = settings.rate.frameDuration
        remuxer.discardedSpans = spans
        if let audio = pipeline.audioFormats.first {
            remuxer.audioPrimingSamples = audio.primingSamples
            remuxer.audioSampleRate = audio.sampleRate
        }
        remuxer.audioTitles = pipeline.audioFormats.compactMap(\.title)
        remuxer.timecode = state.withLock { $0.timecode }
        return try remuxer.remux(chapters: chapters)
    }

    public func abort() {
        guard (try? endThread(discarding: true)) != nil else { return }
        if let pipeline = state.withLock({ $0.pipeline }) { pipeline.abandon() } else { unlink(partialPath) }
    }

    /// An empty clip (no video frame) leaves nothing: the encoder thread ends, and the `.partial` — which holds at
    /// most a header and some audio — is removed. No thumbnail was ever written.
    public func discard() {
        abort()
        unlink(partialPath)
    }

    /// Closes the channels and waits for the encoder thread; throws when it already ended (finish or abort twice).
    private func endThread(discarding: Bool) throws {
        let wasEnded = state.withLock { state in
            defer { state.ended = true }
            return state.ended
        }
        if wasEnded {
            throw MovieWriterError(description: "the movie \(moviePath) was already finished or aborted")
        }
        if discarding {
            videoJobs.discardAndClose()
            audioJobs.discardAndClose()
            programSound?.packets.discardAndClose()
        } else {
            videoJobs.close()
            audioJobs.close()
            programSound?.packets.close()
        }
        threadEnded.wait()
    }

    private func throwIfFailed() throws {
        let (failure, ended) = state.withLock { ($0.failure, $0.ended) }
        if let failure { throw failure }
        if ended { throw MovieWriterError(description: "the movie \(moviePath) was already finished or aborted") }
    }

    /// The encoder thread's first step: opens the encoders and the `.partial`'s muxer. A failure is kept, and is
    /// the next append's (or `finish`'s) error.
    private func open() -> EncodingPipeline? {
        hooks?.willOpenMovie(moviePath)
        let result = Result {
            let copiedSound = try programSound.map { program in
                EncodingPipeline.CopiedSound(formats: try program.track.waitForFormats(), packets: program.packets)
            }
            return try EncodingPipeline(partialPath: partialPath, settings: settings, audioChunks: audioJobs,
                                        copiedSound: copiedSound, sharedAudio: sharedAudio, hooks: hooks)
        }
        state.withLock { state in
            switch result {
            case .success(let made): state.pipeline = made
            case .failure(let error): state.failure = error
            }
        }
        videoJobs.setCapacity(videoQueueLimit)
        switch result {
        case .success(let made):
            sharedAudio.publish(made.audioFormats)
        case .failure(let error):
            sharedAudio.publish(failure: error)
            // Without a pipeline no audio thread takes the chunks or packets: senders must not wait for one.
            audioJobs.discardAndClose()
            programSound?.packets.discardAndClose()
        }
        return try? result.get()
    }

    /// The encoder thread's body: encode until the video channel closes; after an error (or without a pipeline),
    /// only drain (so producers never wait forever) and remember the error for the caller.
    private func runEncoder(_ pipeline: EncodingPipeline?) {
        while let job = videoJobs.receive() {
            hooks?.willHandle(.drawing)
            if state.withLock({ $0.failure == nil }), let pipeline {
                do {
                    switch job {
                    case let .video(frame, time, keyframe):
                        hooks?.willEncodeVideoFrame()
                        try pipeline.encodeVideo(frame, at: time, keyframe: keyframe)
                    case let .repeatVideo(time):
                        try pipeline.repeatVideo(at: time)
                    }
                } catch {
                    state.withLock { $0.failure = error }
                }
            }
            hooks?.didHandle(.drawing)
        }
        threadEnded.signal()
    }
}

/// A misuse or failure of the movie writer that is not an FFmpeg call's error.
public struct MovieWriterError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
