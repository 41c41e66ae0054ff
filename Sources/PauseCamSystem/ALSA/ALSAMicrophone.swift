import CALSA
import Foundation
import PauseCamCore

/// An ALSA capture PCM as PauseCam's `Microphone`: S16_LE at 48 kHz or the device's nearest rate (a 44.1 kHz USB
/// microphone records at 44.1 kHz, and `sampleRate` says so), mono or stereo as the device allows, chunks of one
/// period (~20 ms) stamped on `CLOCK_MONOTONIC` so audio shares the video clock.
///
/// The PCM is opened and configured when the microphone is made, so a rig whose microphone cannot be opened fails
/// (or warns, with `required: false`) before anything is recorded. Overruns (`-EPIPE`) and suspends (`-ESTRPIPE`)
/// are recovered with `snd_pcm_recover`; the samples lost leave a gap in the capture times (`ALSACaptureTimeline`),
/// which the encoder's one drift correction smooths or, past 200 ms, fills with silence. A PCM that disappears (`-ENODEV`) or cannot recover is closed (so an
/// unplugged card is released) and ends the microphone, calling `onEnd` once.
public final class ALSAMicrophone: Microphone, Sendable {
    public let displayName: String
    public let sampleRate: Int32
    public let channels: Int

    /// What PauseCam asks of every microphone.
    public static let preferredRate: Int32 = 48_000

    private let pcm: ALSACaptureDevice
    private let capture = CaptureThread()
    /// What the capture thread shares with the callers of `start` and `statistics`. Held across a start (so two
    /// starts cannot both prepare the PCM) and across the close of a PCM that ended.
    private struct State {
        var counters = Statistics()
        /// The PCM ended by itself (unplugged) and was closed; the microphone cannot start again.
        var gone: String?
    }

    private let state = Guarded(State())

    /// Counters kept while capturing, for the status line and the sidecar.
    public struct Statistics: Sendable, Equatable {
        /// Overruns (`-EPIPE`) and suspends (`-ESTRPIPE`) recovered.
        public var overruns = 0
        /// Reads measured before the previous one ended (jitter, a fast card), moved just after it.
        public var reorderedReads = 0
        /// Chunks delivered.
        public var chunks = 0
    }

    /// Opens and configures the PCM `name` ("default", "hw:1,0", "null"…). Throws `ALSAError` naming the PCM and
    /// ALSA's message.
    /// `channels` above 2 asks for that many (the channels of a USB audio interface whose inputs are voices of
    /// their own); `channels` says what was granted.
    public convenience init(pcm name: String = "default", channels wanted: Int = 2,
                            warn: @escaping @Sendable (String) -> Void) throws {
        let pcm = try ALSAPCM(name: name)
        try pcm.configureHardware(rate: Self.preferredRate, periodFrames: Int(Self.preferredRate) / 50,
                                  channels: max(2, wanted))
        try pcm.configureSoftware()
        self.init(device: pcm, warn: warn)
    }

    /// A microphone on a configured capture device (a scripted one in tests); `sampleRate` and `channels` are what
    /// the device negotiated.
    init(device: ALSACaptureDevice, warn: @escaping @Sendable (String) -> Void) {
        pcm = device
        sampleRate = device.rate
        channels = device.channels
        displayName = "ALSA \(device.name)"
        if !device.monotonicTimestamps {
            warn("microphone \"\(device.name)\" cannot timestamp on CLOCK_MONOTONIC; chunks are stamped when read")
        }
    }

    deinit {
        stop()
        pcm.close()
    }

    /// Counters so far (thread-safe).
    public var statistics: Statistics {
        state.withLock { $0.counters }
    }

    public func start(deliver: @escaping @Sendable (AudioChunk) -> Void,
                      onEnd: @escaping @Sendable (String) -> Void) throws {
        try state.withLock { state in
            guard !capture.isRunning else { return }
            if let gone = state.gone {
                throw ALSAError(pcm: pcm.name, call: "start (the microphone ended: \(gone))", code: -ENODEV)
            }
            try pcm.prepare()
            try pcm.start()
            capture.start(name: "pausecam.alsa \(pcm.name)") { [self] in
                captureLoop(deliver: deliver, onEnd: onEnd)
            }
        }
    }

    /// Stops capture and waits for the capture thread (at most one wait timeout). Idempotent.
    public func stop() {
        capture.stop()
    }

    private func captureLoop(deliver: @Sendable (AudioChunk) -> Void, onEnd: @Sendable (String) -> Void) {
        var timeline = ALSACaptureTimeline(sampleRate: sampleRate)
        let frames = pcm.periodFrames
        var samples = [Int16](repeating: 0, count: frames * channels)
        var endReason: String?
        while !capture.shouldStop {
            let ready = pcm.wait(milliseconds: 100)
            if ready == 0 || ready == -EAGAIN || ready == -EINTR { continue }
            var count = ready < 0 ? ready : 0
            if ready > 0 {
                count = Int32(clamping: samples.withUnsafeMutableBufferPointer { pcm.read(into: $0.baseAddress!, frames: frames) })
            }
            if count == -EAGAIN { continue }
            if count == -EPIPE || count == -ESTRPIPE {
                state.withLock { $0.counters.overruns += 1 }
                do {
                    try pcm.recover(from: count)
                } catch {
                    let what = count == -EPIPE ? "an overrun" : "a suspend"
                    endReason = "microphone \"\(pcm.name)\" could not recover from \(what): \(error)"
                    break
                }
                continue
            }
            if count < 0 {
                endReason = "\(ALSAError(pcm: pcm.name, call: "snd_pcm_readi", code: count))"
                break
            }
            guard count > 0 else { continue }
            let read = Int(count)
            let measured = firstSampleTime(framesRead: read)
            let chunk = AudioChunk(pts: timeline.place(measured: measured, frames: read), sampleRate: sampleRate,
                                   channels: channels, samples: Array(samples[0..<(read * channels)]))
            let reorderedReads = timeline.reorderedReads
            state.withLock { state in
                state.counters.reorderedReads = reorderedReads
                state.counters.chunks += 1
            }
            deliver(chunk)
        }
        pcm.drop()
        // Stopped because udev saw the card go before a read failed: closed all the same, or the kernel keeps the
        // card's number taken until this handle goes, and the re-plugged card comes back under another one.
        let unplugged = endReason == nil && pcm.isDisconnected
        if endReason != nil || unplugged {
            // Close before telling anyone: an unplugged card is only released once every handle on it is closed,
            // and whoever hears `onEnd` may want the re-plugged microphone at once.
            let reason = endReason ?? "microphone \"\(pcm.name)\" was unplugged"
            state.withLock { state in
                pcm.close()
                state.gone = reason
            }
        }
        let endedByItself = capture.end() && endReason != nil
        if endedByItself, let endReason { onEnd(endReason) }
    }

    /// The capture time of the first frame just read: the hardware timestamp minus the frames captured since it
    /// (those still available plus those read), on `CLOCK_MONOTONIC`.
    private func firstSampleTime(framesRead: Int) -> MediaTime {
        let stamp = pcm.monotonicTimestamps ? pcm.hardwareTimestamp() : nil
        let (available, time) = stamp ?? (0, MonotonicClock.now())
        return time - MediaTime(value: Int64(available + framesRead), timescale: sampleRate)
    }
}
