import Foundation

/// Where one voice's own sound goes beside a clip's ISOs (`NAME.iso/VOICE.wav`): a Broadcast WAV written by
/// libavformat in PauseCamSystem, or a recording fake in tests.
///
/// Fed from the serial context with the voice's mono samples at their file time (the `.partial`'s, discarded takes
/// included), in file-time order, until the clip stops; then the sink is handed, inside a `ClipFinishJob`, to the
/// finisher's worker, which finishes, aborts or discards it. Hence `Sendable`: one thread uses it at a time, but not
/// always the same one. The sink owns the samples it is handed.
public protocol VoiceWaveSink: AnyObject, Sendable {
    /// The voice's name (its track's title), which names the file.
    var voice: String { get }
    /// The file written (`NAME.iso/VOICE.wav`); it is the finished file's path too.
    var path: String { get }
    /// Appends mono `samples` whose first one is at file time `fileTime`. Sample n of the file is at file time
    /// n / rate: a gap before `fileTime` is filled with silence, and samples before the end already written are
    /// left out (see `VoiceWaveLayout`).
    func append(_ samples: [Int16], at fileTime: MediaTime) throws
    /// Writes everything handed over and closes the file, leaving out the spans (file time, in order, not
    /// overlapping) that `retake` discarded, exactly at their samples; gives what the file holds.
    func finish(discarding spans: [Range<MediaTime>]) throws -> VoiceWaveSummary
    /// Stops after a failure elsewhere, leaving the file as it stands (readable, as after a crash).
    func abort()
    /// Abandons a clip that kept nothing and removes the file.
    func discard()
}

/// What a finished voice file holds.
public struct VoiceWaveSummary: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// Mono samples in the file.
    public var samples: Int
    /// Samples handed over that the writer had no room for (it fell behind, real clock only): silence in the file.
    public var samplesDropped: Int
    public init(path: String, samples: Int, samplesDropped: Int = 0) {
        self.path = path
        self.samples = samples
        self.samplesDropped = samplesDropped
    }
}

/// Makes the voice files of a clip: the composition root hands the `ClipController` one (the FFmpeg Broadcast WAV
/// writer, or a fake in tests), as it hands it a `MovieSinkFactory`.
public protocol VoiceWaveSinkFactory: AnyObject {
    /// Opens `directory/voice.wav` (never over an existing file) for mono samples at `sampleRate`, whose sample 0
    /// is at the wall-clock instant `startedAt` (its `bext` time reference counts from that instant's local
    /// midnight). `blockWhenBehind`: a writer that falls behind makes the caller wait (simulated clock) rather than
    /// leave silence in the file (real clock).
    func makeVoiceSink(directory: String, voice: String, sampleRate: Int32, startedAt: Date,
                       blockWhenBehind: Bool) throws -> any VoiceWaveSink
}
