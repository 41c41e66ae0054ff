/// Where retimed samples go: the movie writer (FFmpeg, in PauseCamSystem) or a recording fake in tests.
///
/// All calls come from the serial context, in file-time order per track, until the clip stops; then the sink is
/// handed, inside a `ClipFinishJob`, to the finisher's worker, which finishes or aborts it. Hence `Sendable`: one
/// thread uses it at a time, but not always the same one. A sink may encode on its own thread; it owns the samples
/// it is handed.
public protocol MovieSink: AnyObject, Sendable {
    /// Where the finished movie will be (`NAME.mov`); reserved when the sink was made, so no other clip takes it.
    var moviePath: String { get }
    /// Where the movie is written while recording (`NAME.mov.partial`, a fragmented file that survives a crash).
    var partialPath: String { get }
    /// Appends one video frame at `fileTime`; `keyframe` asks for an IDR frame (scene starts, lens switches).
    func appendVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws
    /// Remembers `frame` as the clip's thumbnail (the recorder passes the first frame of every scene, so the last
    /// one wins: the first frame of the last scene). Written as a JPEG beside the movie by `finish`.
    func setThumbnail(_ frame: VideoFrame)
    /// Appends audio whose first sample is at file time `chunk.pts`.
    func appendAudio(_ chunk: AudioChunk) throws
    /// Gives the finished movie a timecode track (`tmcd`) whose first frame is labelled `startFrame` (a `Timecode`
    /// frame count at the movie's rate). Called before `finish`; without it the movie has no timecode.
    func setTimecode(startFrame: Int64)
    /// Writes everything queued, adds one chapter per entry, closes the file and gives its final path.
    func finish(chapters: [Chapter]) throws -> MovieSummary
    /// `finish(chapters:)`, leaving out the spans of the `.partial` (in its file time, in order, not overlapping)
    /// that `retake` discarded: what follows a span moves back by its length, so the movie has no gap.
    func finish(chapters: [Chapter], discarding spans: [Range<MediaTime>]) throws -> MovieSummary
    /// Pictures dropped so far because the encoder fell behind (real clock only; each one's frame repeats the picture
    /// before it, so the movie keeps its constant rate); for live status.
    var droppedVideoFrames: Int { get }
    /// True once the `.partial` being written was deleted (by hand, or with its folder): what is recorded from then
    /// on, and before, can no longer be saved. Checked by the periodic health check; cheap (one `fstat`).
    var partialFileDeleted: Bool { get }
    /// How `finish` will turn the `.partial` into the movie: in place (only an index added) or by a copy (the
    /// media written again). The health check keeps the free space that needs (`FinishingReserve`).
    var finishing: MovieFinishing { get }
    /// True for an ISO's sink made by `MovieSinkFactory.makeIsoSink` that takes the program's encoded sound
    /// itself: the recorder then hands it no audio.
    var takesProgramSound: Bool { get }
    /// The samples of one encoded audio packet (AAC: 1024) when the finish cuts a retake's sound at whole packets
    /// (`WholePacketAudioCut`); 0 when it does not. The recorder moves the sound after each cut by the rounding.
    var audioPacketSamples: Int { get }
    /// Abandons the movie after a fatal error, leaving whatever was written (the `.partial` file) in place.
    func abort()
    /// Abandons a movie that has nothing in it (no video frame was appended) and removes the files it made, so an
    /// empty clip leaves no `.partial`, no movie and no thumbnail behind.
    func discard()
}

extension MovieSink {
    /// For sinks that write no files (test fakes), discarding is just aborting.
    public func discard() { abort() }
    /// Sinks that write no files (test fakes) have nothing to delete.
    public var partialFileDeleted: Bool { false }
    /// Sinks that write no files (test fakes) are counted as copies: the larger reserve, as before the in-place
    /// finish.
    public var finishing: MovieFinishing { .byCopy }
    /// A sink takes the audio the recorder hands it unless it says otherwise.
    public var takesProgramSound: Bool { false }
    /// A sink that cuts no sound at packets (a test's) asks for no alignment.
    public var audioPacketSamples: Int { 0 }
    /// Sinks that write no movie (test fakes) have no timecode to write.
    public func setTimecode(startFrame: Int64) {}
}

/// Makes movie sinks: the composition root hands the recorder one of these (the FFmpeg writer, or a fake in tests).
public protocol MovieSinkFactory: AnyObject {
    /// Reserves a movie name in `directory` from `baseName` (adding `-2`, `-3`… when `NAME.mov`, its `.partial` or
    /// its sidecar exists; nothing is ever overwritten) and opens a sink that writes there.
    func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink
    /// `makeSink` for an ISO of `program` (a sink this factory made, before it got any sound): the ISO has the
    /// program's sound. A factory whose sinks can share it (the FFmpeg writer: the program's AAC packets, copied)
    /// returns a sink whose `takesProgramSound` is true; otherwise the recorder hands the ISO the program's audio.
    func makeIsoSink(directory: String, baseName: String, settings: MovieSettings,
                     program: any MovieSink) throws -> any MovieSink
}

extension MovieSinkFactory {
    /// A factory of sinks that cannot share sound: the ISO's sink is an ordinary one, given the program's audio.
    public func makeIsoSink(directory: String, baseName: String, settings: MovieSettings,
                            program: any MovieSink) throws -> any MovieSink {
        try makeSink(directory: directory, baseName: baseName, settings: settings)
    }
}

extension MovieSink {
    /// A sink that cannot cut (a test's) finishes as before when nothing was discarded.
    public func finish(chapters: [Chapter], discarding spans: [Range<MediaTime>]) throws -> MovieSummary {
        precondition(spans.isEmpty, "this sink cannot leave discarded takes out")
        return try finish(chapters: chapters)
    }
}

/// A chapter mark: a title starting at a file time.
public struct Chapter: Sendable, Equatable {
    public var title: String
    public var start: MediaTime
    public var end: MediaTime
    public init(title: String, start: MediaTime, end: MediaTime) {
        self.title = title
        self.start = start
        self.end = end
    }
}

/// What the sink reports once a movie is finished. A movie of several audio tracks (`AudioSettings.tracks`) counts
/// its first track's audio (the mix): every track has the same samples at the same times, and loses the same ones.
public struct MovieSummary: Sendable, Equatable {
    /// The finished movie's path.
    public var path: String
    /// Video frames written to the file.
    public var videoFramesWritten: Int
    /// Pictures dropped because the encoder fell behind (real clock only): their frames repeat the picture before.
    public var videoFramesDropped: Int
    /// Audio sample frames in the movie: those encoded, less the packets of takes `retake` threw away.
    public var audioSamplesWritten: Int
    /// Audio sample frames dropped because the encoder fell behind (real clock only; replaced by silence).
    public var audioSamplesDropped: Int
    /// The thumbnail JPEG beside the movie, if one was written.
    public var thumbnailPath: String?
    /// Stalls of the audio beyond what drift correction smooths (see `AudioDriftCorrector`), corrected at once.
    public var audioStalls = AudioStallReport()
    public init(path: String, videoFramesWritten: Int, videoFramesDropped: Int, audioSamplesWritten: Int,
                audioSamplesDropped: Int = 0, thumbnailPath: String? = nil) {
        self.audioSamplesDropped = audioSamplesDropped
        self.path = path
        self.thumbnailPath = thumbnailPath
        self.videoFramesWritten = videoFramesWritten
        self.videoFramesDropped = videoFramesDropped
        self.audioSamplesWritten = audioSamplesWritten
    }
}

/// The settings a movie is opened with, taken from the rig's `output` section.
public struct MovieSettings: Sendable, Equatable {
    public enum Container: String, Sendable, CaseIterable { case mov, mp4, mkv }
    /// Output canvas; every frame is fitted (letterboxed) into it.
    public var width: Int
    public var height: Int
    public var rate: FrameRate
    public var container: Container
    /// x264 preset ("ultrafast" … "veryslow").
    public var preset: String
    /// x264 constant rate factor (0–51).
    public var crf: Int
    /// The longest time between keyframes.
    public var keyframeInterval: MediaTime
    /// Audio settings; `nil` records video only.
    public var audio: AudioSettings?
    /// When the encoder falls behind: block the caller (simulated clock; nothing is lost) or drop frames (real clock).
    public var blockWhenBehind: Bool
    /// How the pictures are coded: H.264 by default; an ISO of an MJPEG lens keeps the camera's JPEGs.
    public var videoCoding: VideoCoding = .h264

    /// How a movie's pictures become its video stream.
    public enum VideoCoding: Sendable, Equatable {
        /// Each picture is drawn onto the canvas and encoded by x264 (`preset`, `crf`, `keyframeInterval`).
        case h264
        /// MJPEG: each JPEG of the movie's size goes in as the camera sent it (no decode, no encode; every frame a
        /// keyframe). Any other picture (the slate, another format or size) is drawn and encoded as a JPEG.
        case jpegPassThrough
    }

    public struct AudioSettings: Sendable, Equatable {
        public var sampleRate: Int32
        public var channels: Int
        /// Bits per second of the first track; each other track gets it in proportion to its channels (a mono
        /// voice half a stereo mix's).
        public var bitrate: Int
        /// Fade out and in at every seam (`audio.declick`, see `Declicker`): done by the recorder, not the sink.
        public var declick: Bool
        /// The rig's digital gain in dB (`audio.gain`), applied before the recorder sees the samples; kept here
        /// for the sidecar.
        public var gainDecibels: Double = 0
        /// The movie's audio tracks, each taking some of the chunks' interleaved channels, in order; empty: one
        /// track of every channel (a rig of one microphone). A rig of voices has the stereo mix first (channels
        /// 0 and 1, titled "mix"), then one mono track per voice.
        public var tracks: [AudioTrack] = []
        public init(sampleRate: Int32 = 48_000, channels: Int = 1, bitrate: Int = 128_000, declick: Bool = true,
                    gainDecibels: Double = 0) {
            self.gainDecibels = gainDecibels
            self.sampleRate = sampleRate
            self.channels = channels
            self.bitrate = bitrate
            self.declick = declick
        }
    }

    /// One audio track of a movie: a title (ffprobe's `title` tag; what players list) and the channels of the
    /// recorder's chunks it carries (indices into their interleaved channels).
    public struct AudioTrack: Sendable, Equatable {
        public var title: String
        public var channels: [Int]
        public init(title: String, channels: [Int]) {
            self.title = title
            self.channels = channels
        }
    }

    public init(width: Int = 1920, height: Int = 1080, rate: FrameRate = FrameRate(30), container: Container = .mov,
                preset: String = "veryfast", crf: Int = 20, keyframeInterval: MediaTime = .seconds(2),
                audio: AudioSettings? = AudioSettings(), blockWhenBehind: Bool = false) {
        self.width = width
        self.height = height
        self.rate = rate
        self.container = container
        self.preset = preset
        self.crf = crf
        self.keyframeInterval = keyframeInterval
        self.audio = audio
        self.blockWhenBehind = blockWhenBehind
    }
}
