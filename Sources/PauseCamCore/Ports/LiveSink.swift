import Foundation

/// One live output of the program (a stream destination, a webcam device): it gets the switched, zoomed picture at
/// the output's constant rate and the rig's sound, continuously from the rig's start to its end — idle, recording
/// and paused alike. Pauses and retakes cut only the recording; they never reach a live sink.
///
/// Times are *live time*: the session clock since the rig started (`LiveFeed.origin`), never cut by a pause. Video
/// frames come one per output slot, each `liveTime` exactly one frame duration after the one before (the slot's
/// capture time minus the rig's start, so sound and picture share one time line); the last picture is repeated when
/// the lens is slower than the output or stalls.
///
/// Thread contract: every call comes on the serial context, which must never wait. An implementation hands the
/// work to its own thread (a `BoundedChannel` with a dropping policy), so a slow or broken destination loses its own
/// frames and never blocks the recording, the other sinks or the context. After `close()` no call comes.
public protocol LiveSink: AnyObject {
    /// The name the user sees in `status`, events and `live on|off NAME`; never holds a secret (a stream key).
    var name: String { get }

    /// One slot of the program. `frame` is the active lens's picture as the `Switcher` routed it: its own size and
    /// pixel format, with `crop` (the digital zoom) and `orientation` still to apply when it is scaled to the sink's
    /// size. `frame.pts` is the slot's capture-clock time; `liveTime` is the time to give it in the output.
    /// The frame's pixels are shared copy-on-write: the sink may keep it.
    func appendVideo(_ frame: VideoFrame, at liveTime: MediaTime)

    /// The rig's sound, as the recorder gets it (one microphone after the rig's gain, or the voice desk's mix),
    /// with `chunk.pts` already in live time. Chunks follow each other without overlap.
    func appendAudio(_ chunk: AudioChunk)

    /// The rig ends (quit): the sink stops its thread and lets go of its destination. Must not block for long.
    func close()
}

/// What every live sink of a rig is fed: the program's canvas, rate and sound format, fixed for the session.
public struct LiveProgram: Sendable, Equatable {
    /// The program's canvas (the rig's `output` size); a sink may scale to its own size.
    public var width: Int
    public var height: Int
    /// The output's frame rate: one `appendVideo` per frame duration of live time.
    public var rate: FrameRate
    /// The sound's rate and channels as `appendAudio` delivers it; `nil` for a rig without a microphone.
    public var audioSampleRate: Int?
    public var audioChannels: Int?

    public init(width: Int, height: Int, rate: FrameRate, audioSampleRate: Int? = nil, audioChannels: Int? = nil) {
        self.width = width
        self.height = height
        self.rate = rate
        self.audioSampleRate = audioSampleRate
        self.audioChannels = audioChannels
    }
}

/// Makes a rig's live sinks once, when the `RigController` is made: the composition root gives one that builds the
/// stream outputs and the webcam of the rig's `live:`; tests give fakes. A rig without one (the default) has no
/// live output and behaves exactly as a recording-only rig.
public protocol LiveSinkFactory {
    /// The sinks for `program`, in the rig's order; empty for none. Called on the serial context; must not block
    /// (a sink connects on its own thread). A sink tells its news (`liveStarted`, `liveLost`, `liveBack`, a webcam
    /// device gone) through `report`, from any thread: the engine takes it onto the serial context, tells every
    /// listener and notes losses in the clip being recorded.
    func makeLiveSinks(for program: LiveProgram, report: @escaping @Sendable (EngineEvent) -> Void) -> [any LiveSink]
}

/// A live sink that can be turned off and on (`live off NAME` closes a stream's connection) and says how it is
/// doing. A sink without it is turned off by no longer being fed, and counts as live while on.
public protocol LiveSinkControl: LiveSink {
    /// Turns the output on or off; any thread, never blocks.
    func setOn(_ on: Bool)
    /// How it is doing now; any thread.
    var liveStatus: LiveSinkStatus { get }
}

/// One live output as `status`, the prompt and `ctl status` show it. Never holds a URL.
public struct LiveSinkStatus: Sendable, Equatable {
    public var name: String
    /// Asked to be live (`start: on` or `live on`).
    public var on: Bool
    /// Connected and sending now.
    public var live: Bool
    /// Bits per second sent over the last second or so; 0 when unknown.
    public var bitsPerSecond: Int
    /// Frames it lost because it was too slow.
    public var droppedFrames: Int
    /// Times it was lost (a first connection that failed included) and tried again.
    public var outages: Int
    /// While on and not live after an attempt failed: the last failure's short reason ("Connection refused"), never
    /// holding a URL; nil before the first attempt ends and once it sends.
    public var lostReason: String?
    /// While waiting to try again: how long until the next attempt (zero: trying now).
    public var retryIn: MediaTime?

    public init(name: String, on: Bool, live: Bool, bitsPerSecond: Int = 0, droppedFrames: Int = 0, outages: Int = 0,
                lostReason: String? = nil, retryIn: MediaTime? = nil) {
        self.name = name
        self.on = on
        self.live = live
        self.bitsPerSecond = bitsPerSecond
        self.droppedFrames = droppedFrames
        self.outages = outages
        self.lostReason = lostReason
        self.retryIn = retryIn
    }

    /// `LIVE youtube 2.9 Mbit/s`, `live youtube connecting`, `live youtube lost (Connection refused), retrying in
    /// 4 s`, `live youtube off`, with drops when there are any.
    public var summary: String {
        guard on else { return "live \(name) off" }
        guard live else {
            guard let lostReason else { return "live \(name) connecting" }
            return "live \(name) lost (\(lostReason)), " + retryText
        }
        let rate = bitsPerSecond > 0 ? " \(String(format: "%.1f", Double(bitsPerSecond) / 1e6)) Mbit/s" : ""
        return "LIVE \(name)\(rate)" + (droppedFrames > 0 ? " (\(droppedFrames) dropped)" : "")
    }

    /// `retrying in 4 s` (whole seconds, rounded up) or `retrying now`.
    public var retryText: String {
        guard let retryIn, retryIn > .zero else { return "retrying now" }
        return "retrying in \(Int(retryIn.seconds.rounded(.up))) s"
    }
}
