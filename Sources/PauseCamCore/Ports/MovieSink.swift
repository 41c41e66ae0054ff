/// Where retimed samples go: the movie writer (FFmpeg, in PauseCamSystem) or a recording fake in tests.
///
/// All calls come from the serial context, in file-time order per track. A sink may encode on its own thread; it
/// owns the samples it is handed.
public protocol MovieSink: AnyObject {
    /// Appends one video frame at `fileTime`; `keyframe` asks for an IDR frame (scene starts, lens switches).
    func appendVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws
    /// Appends audio whose first sample is at file time `chunk.pts`.
    func appendAudio(_ chunk: AudioChunk) throws
    /// Writes everything queued, adds one chapter per entry, closes the file and gives its final path.
    func finish(chapters: [Chapter]) throws -> MovieSummary
    /// Abandons the movie after a fatal error, leaving whatever was written (the `.partial` file) in place.
    func abort()
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

/// What the sink reports once a movie is finished.
public struct MovieSummary: Sendable, Equatable {
    /// The finished movie's path.
    public var path: String
    /// Video frames written to the file.
    public var videoFramesWritten: Int
    /// Video frames dropped because the encoder fell behind (real clock only).
    public var videoFramesDropped: Int
    /// Audio sample frames written.
    public var audioSamplesWritten: Int
    public init(path: String, videoFramesWritten: Int, videoFramesDropped: Int, audioSamplesWritten: Int) {
        self.path = path
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

    public struct AudioSettings: Sendable, Equatable {
        public var sampleRate: Int32
        public var channels: Int
        public var bitrate: Int
        public init(sampleRate: Int32 = 48_000, channels: Int = 1, bitrate: Int = 128_000) {
            self.sampleRate = sampleRate
            self.channels = channels
            self.bitrate = bitrate
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
