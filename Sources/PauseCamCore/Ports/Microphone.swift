/// A source of audio: an ALSA capture PCM (PauseCamSystem) or the virtual microphone (PauseCamVirtual).
///
/// Chunks carry the capture time of their first sample on the session clock, so audio and video share one timeline.
public protocol Microphone: AnyObject, Sendable {
    /// For messages and the sidecar ("ALSA default", "Virtual microphone").
    var displayName: String { get }
    /// Samples per second of every chunk.
    var sampleRate: Int32 { get }
    /// Interleaved channels of every chunk.
    var channels: Int { get }
    /// Starts delivering chunks; `onEnd` is called once if the device goes away.
    func start(deliver: @escaping @Sendable (AudioChunk) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws
    /// Stops delivering; idempotent.
    func stop()
}
