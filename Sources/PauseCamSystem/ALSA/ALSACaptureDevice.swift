import PauseCamCore

/// The seam between the microphone's capture loop and ALSA: one method per PCM call it makes while capturing, so
/// overruns, suspends, an unplugged device and stalled reads can be tested with a scripted device. `ALSAPCM` is the
/// real one; it is configured (rate, channels, period) before the microphone gets it.
protocol ALSACaptureDevice: AnyObject, Sendable {
    /// The PCM name, e.g. "hw:1,0", for messages.
    var name: String { get }
    /// Samples per second, as negotiated.
    var rate: Int32 { get }
    /// Interleaved channels, as negotiated.
    var channels: Int { get }
    /// Frames per period: the size of one read.
    var periodFrames: Int { get }
    /// True when `hardwareTimestamp()` is on `CLOCK_MONOTONIC`.
    var monotonicTimestamps: Bool { get }
    /// `snd_pcm_prepare`.
    func prepare() throws
    /// `snd_pcm_start`.
    func start() throws
    /// `snd_pcm_wait`: 1 ready, 0 timeout, or a negative error.
    func wait(milliseconds: Int32) -> Int32
    /// `snd_pcm_readi`: frames read or a negative error.
    func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) -> Int
    /// `snd_pcm_htimestamp`: frames available and when, or `nil`.
    func hardwareTimestamp() -> (available: Int, time: MediaTime)?
    /// `snd_pcm_recover` after `-EPIPE` (overrun) or `-ESTRPIPE` (suspended), then `snd_pcm_start` when the PCM
    /// was only prepared; throws when the PCM cannot capture again.
    func recover(from code: Int32) throws
    /// `snd_pcm_state` is `SND_PCM_STATE_DISCONNECTED`: the card is gone (unplugged), though no read said so yet.
    var isDisconnected: Bool { get }
    /// `snd_pcm_drop`.
    func drop()
    /// `snd_pcm_close`; idempotent, every later call fails.
    func close()
}
