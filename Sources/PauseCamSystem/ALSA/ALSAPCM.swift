import CALSA
import Foundation
import PauseCamCore

/// An ALSA capture PCM configured for PauseCam: interleaved S16_LE at the rate nearest the one asked for (what the
/// device really runs at), non-blocking, with timestamps on `CLOCK_MONOTONIC` (the clock V4L2 stamps frames with).
/// One wrapper per ALSA call; every failure is an `ALSAError` naming the PCM, and every call after `close()` fails
/// (`-EBADFD`) instead of reaching a freed handle. Owned by one `ALSAMicrophone`, used from one thread at a time.
/// Unchecked Sendable: an ALSA PCM handle (C, not thread-safe) driven by one thread at a time — configured by the
/// opener, then read by the microphone's capture thread; `close` after that thread ended or under the microphone's lock.
final class ALSAPCM: ALSACaptureDevice, @unchecked Sendable {
    let name: String
    private var handle: OpaquePointer?
    /// Samples per second, as granted.
    private(set) var rate: Int32 = 0
    /// Interleaved channels, as granted (1 or 2).
    private(set) var channels: Int = 0
    /// Frames per period: the size of one read.
    private(set) var periodFrames: Int = 0
    /// True when the PCM accepted `SND_PCM_TSTAMP_TYPE_MONOTONIC`; otherwise reads are stamped with
    /// `clock_gettime(CLOCK_MONOTONIC)` when they return.
    private(set) var monotonicTimestamps = false

    /// Opens `name` for capture. The corresponding C function is `snd_pcm_open`.
    init(name: String) throws {
        self.name = name
        pausecam_alsa_install_silent_error_handler()
        var pcm: OpaquePointer?
        let code = snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        if code < 0 { throw ALSAError(pcm: name, call: "snd_pcm_open", code: code) }
        handle = pcm
    }

    deinit { close() }

    private func check(_ code: Int32, _ call: String) throws {
        if code < 0 { throw ALSAError(pcm: name, call: call, code: code) }
    }

    /// The open handle, or an error naming `call` once the PCM was closed.
    private func openHandle(_ call: String) throws -> OpaquePointer {
        guard let handle else { throw ALSAError(pcm: name, call: call + " (the PCM was closed)", code: -EBADFD) }
        return handle
    }

    /// Sets interleaved S16_LE, 1 or 2 channels (stereo preferred; up to `wantedChannels` when more are asked for,
    /// the inputs of an audio interface), about 20 ms periods, at the rate nearest
    /// `rate`: a USB microphone that only runs at 44.1 kHz records at 44.1 kHz (`rate` tells which), rather than
    /// failing. The corresponding C functions are the `snd_pcm_hw_params_*` family and `snd_pcm_hw_params`.
    func configureHardware(rate wanted: Int32, periodFrames wantedPeriod: Int, channels wantedChannels: Int = 2) throws {
        let handle = try openHandle("snd_pcm_hw_params")
        var params: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&params), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(params) }
        try check(snd_pcm_hw_params_any(handle, params), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_access(handle, params, SND_PCM_ACCESS_RW_INTERLEAVED),
                  "snd_pcm_hw_params_set_access(RW_INTERLEAVED)")
        try check(snd_pcm_hw_params_set_format(handle, params, SND_PCM_FORMAT_S16_LE),
                  "snd_pcm_hw_params_set_format(S16_LE)")
        var channelCount = UInt32(max(2, min(32, wantedChannels)))
        try check(snd_pcm_hw_params_set_channels_near(handle, params, &channelCount),
                  "snd_pcm_hw_params_set_channels_near")
        guard channelCount >= 1 && channelCount <= UInt32(max(2, min(32, wantedChannels))) else {
            throw ALSAError(pcm: name, call: "snd_pcm_hw_params_set_channels_near(\(channelCount) channels)",
                            code: -EINVAL)
        }
        var rateValue = UInt32(wanted)
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(handle, params, &rateValue, &direction),
                  "snd_pcm_hw_params_set_rate_near(\(wanted))")
        // The period is asked for in time, not frames: ~20 ms at whatever rate was granted.
        direction = 0
        var period = snd_pcm_uframes_t(max(1, Int(rateValue) * wantedPeriod / max(1, Int(wanted))))
        try check(snd_pcm_hw_params_set_period_size_near(handle, params, &period, &direction),
                  "snd_pcm_hw_params_set_period_size_near")
        var buffer = period * 8
        try check(snd_pcm_hw_params_set_buffer_size_near(handle, params, &buffer),
                  "snd_pcm_hw_params_set_buffer_size_near")
        try check(snd_pcm_hw_params(handle, params), "snd_pcm_hw_params")
        try check(snd_pcm_hw_params_get_rate(params, &rateValue, &direction), "snd_pcm_hw_params_get_rate")
        try check(snd_pcm_hw_params_get_period_size(params, &period, &direction), "snd_pcm_hw_params_get_period_size")
        guard rateValue > 0, rateValue <= UInt32(Int32.max) else {
            throw ALSAError(pcm: name, call: "snd_pcm_hw_params_get_rate(\(rateValue) Hz)", code: -EINVAL)
        }
        rate = Int32(rateValue)
        channels = Int(channelCount)
        periodFrames = Int(period)
    }

    /// Enables timestamps on `CLOCK_MONOTONIC` and wakes a reader for one period. A PCM that cannot stamp on the
    /// monotonic clock is not an error (`monotonicTimestamps` stays false). The corresponding C functions are the
    /// `snd_pcm_sw_params_*` family and `snd_pcm_sw_params`.
    func configureSoftware() throws {
        let handle = try openHandle("snd_pcm_sw_params")
        var params: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&params), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(params) }
        try check(snd_pcm_sw_params_current(handle, params), "snd_pcm_sw_params_current")
        try check(snd_pcm_sw_params_set_avail_min(handle, params, snd_pcm_uframes_t(periodFrames)),
                  "snd_pcm_sw_params_set_avail_min")
        let stamped = snd_pcm_sw_params_set_tstamp_mode(handle, params, SND_PCM_TSTAMP_ENABLE) >= 0
            && snd_pcm_sw_params_set_tstamp_type(handle, params, SND_PCM_TSTAMP_TYPE_MONOTONIC) >= 0
        try check(snd_pcm_sw_params(handle, params), "snd_pcm_sw_params")
        monotonicTimestamps = stamped
    }

    /// Starts capture. The corresponding C function is `snd_pcm_start`.
    func start() throws { try check(snd_pcm_start(openHandle("snd_pcm_start")), "snd_pcm_start") }

    /// Waits up to `milliseconds` for a period; returns the raw result (1 ready, 0 timeout, negative error) so the
    /// caller can treat `-EPIPE` as an overrun. The corresponding C function is `snd_pcm_wait`.
    func wait(milliseconds: Int32) -> Int32 {
        guard let handle else { return -EBADFD }
        return snd_pcm_wait(handle, milliseconds)
    }

    /// Reads up to `frames` interleaved frames into `buffer`; returns the frame count or a negative error
    /// (`-EAGAIN` nothing ready, `-EPIPE` overrun, `-ESTRPIPE` suspended, `-ENODEV` unplugged). The corresponding
    /// C function is `snd_pcm_readi`.
    func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) -> Int {
        guard let handle else { return Int(-EBADFD) }
        return Int(snd_pcm_readi(handle, buffer, snd_pcm_uframes_t(frames)))
    }

    /// Frames available and the time (`CLOCK_MONOTONIC` when `monotonicTimestamps`) the hardware position was
    /// last updated; `nil` when the PCM gives no timestamp. The corresponding C function is `snd_pcm_htimestamp`.
    func hardwareTimestamp() -> (available: Int, time: MediaTime)? {
        var available: snd_pcm_uframes_t = 0
        var stamp = timespec()
        guard let handle, snd_pcm_htimestamp(handle, &available, &stamp) >= 0, stamp.tv_sec != 0 || stamp.tv_nsec != 0,
              let time = MediaTime.timespec(seconds: Int64(stamp.tv_sec), nanoseconds: Int64(stamp.tv_nsec))
        else { return nil }
        return (Int(available), time)
    }

    /// Makes the PCM ready to start. The corresponding C function is `snd_pcm_prepare`.
    func prepare() throws { try check(snd_pcm_prepare(openHandle("snd_pcm_prepare")), "snd_pcm_prepare") }

    /// Capture again after `-EPIPE` (an overrun: prepare) or `-ESTRPIPE` (the system suspended: resume, or
    /// prepare when the device cannot resume), then start if that left the PCM only prepared (a resumed PCM
    /// runs already). The corresponding C functions are `snd_pcm_recover`, `snd_pcm_state`, `snd_pcm_start`.
    func recover(from code: Int32) throws {
        let handle = try openHandle("snd_pcm_recover")
        try check(snd_pcm_recover(handle, code, 1), "snd_pcm_recover(\(String(cString: snd_strerror(code))))")
        if snd_pcm_state(handle) == SND_PCM_STATE_PREPARED { try start() }
    }

    /// The PCM's state, e.g. `SND_PCM_STATE_RUNNING`; `nil` once closed. The corresponding C function is
    /// `snd_pcm_state`.
    var state: snd_pcm_state_t? { handle.map { snd_pcm_state($0) } }

    /// The card was unplugged (`SND_PCM_STATE_DISCONNECTED`): the PCM can only be closed. The corresponding C
    /// function is `snd_pcm_state`.
    var isDisconnected: Bool { state == SND_PCM_STATE_DISCONNECTED }

    /// Stops capture, dropping pending frames. The corresponding C function is `snd_pcm_drop`.
    func drop() { if let handle { _ = snd_pcm_drop(handle) } }

    /// Closes the PCM; idempotent. The corresponding C function is `snd_pcm_close`.
    func close() {
        if let handle { _ = snd_pcm_close(handle) }
        handle = nil
    }
}
