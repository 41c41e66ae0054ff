/// Where the program goes live, beside the recording: a webcam device or a stream destination. Fed from the
/// serial context with the program's frames from start to quit, idle, recording and paused alike; a sink never
/// blocks its caller (it keeps the newest frames and does its work on its own thread).
public protocol LiveSink: AnyObject, Sendable {
    /// The sink's name as the user knows it (the device node, or the destination without its key).
    var name: String { get }
    /// One program frame, shown at `liveTime` (the live feed's own clock, which a pause does not stop).
    func appendVideo(_ frame: VideoFrame, at liveTime: MediaTime)
    /// The program's sound, for sinks that carry it.
    func appendAudio(_ chunk: AudioChunk)
    /// Stops and releases the sink; idempotent.
    func close()
}
