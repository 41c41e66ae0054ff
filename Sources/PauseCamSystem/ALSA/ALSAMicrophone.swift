import CALSA
import Foundation
import PauseCamCore

/// An ALSA capture PCM as PauseCam's `Microphone`: 48 kHz S16_LE, mono or stereo as the device allows, chunks of
/// one period (~20 ms) stamped on `CLOCK_MONOTONIC` so audio shares the video clock.
///
/// The PCM is opened and configured when the microphone is made, so a rig whose microphone cannot be opened fails
/// (or warns, with `required: false`) before anything is recorded. Overruns (`-EPIPE`) are recovered with
/// `snd_pcm_prepare`; the samples lost are counted and filled with silence (`ALSACaptureTimeline`). A PCM that
/// disappears (`-ENODEV`) ends the microphone and calls `onEnd` once.
public final class ALSAMicrophone: Microphone, @unchecked Sendable {
    public let displayName: String
    public let sampleRate: Int32
    public let channels: Int

    /// What PauseCam asks of every microphone.
    public static let preferredRate: Int32 = 48_000

    private let pcm: ALSAPCM
    private let warn: @Sendable (String) -> Void
    private let lock = NSLock()
    private let capture = CaptureThread()
    private var counters = Statistics()

    /// Counters kept while capturing, for the status line and the sidecar.
    public struct Statistics: Sendable, Equatable {
        /// Overruns (`-EPIPE`) recovered.
        public var overruns = 0
        /// Frames of silence put in for samples lost to overruns.
        public var silenceFrames = 0
        /// Frames dropped because the card's clock ran ahead of `CLOCK_MONOTONIC`.
        public var droppedFrames = 0
        /// Chunks delivered.
        public var chunks = 0
    }

    /// Opens and configures the PCM `name` ("default", "hw:1,0", "null"…). Throws `ALSAError` naming the PCM and
    /// ALSA's message.
    public init(pcm name: String = "default", warn: @escaping @Sendable (String) -> Void) throws {
        pcm = try ALSAPCM(name: name)
        self.warn = warn
        try pcm.configureHardware(rate: Self.preferredRate, periodFrames: Int(Self.preferredRate) / 50)
        try pcm.configureSoftware()
        sampleRate = pcm.rate
        channels = pcm.channels
        displayName = "ALSA \(name)"
        if !pcm.monotonicTimestamps {
            warn("microphone \"\(name)\" cannot timestamp on CLOCK_MONOTONIC; chunks are stamped when read")
        }
    }

    deinit {
        stop()
        pcm.close()
    }

    /// Counters so far (thread-safe).
    public var statistics: Statistics {
        lock.lock(); defer { lock.unlock() }
        return counters
    }

    public func start(deliver: @escaping @Sendable (AudioChunk) -> Void,
                      onEnd: @escaping @Sendable (String) -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !capture.isRunning else { return }
        try pcm.prepare()
        try pcm.start()
        capture.start(name: "pausecam.alsa \(pcm.name)") { [self] in
            captureLoop(deliver: deliver, onEnd: onEnd)
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
                lock.lock(); counters.overruns += 1; lock.unlock()
                if (try? pcm.prepare()) == nil || (try? pcm.start()) == nil {
                    endReason = "microphone \"\(pcm.name)\" could not recover from an overrun"
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
            let placement = timeline.place(measured: measured, frames: read)
            guard placement.dropFromStart < read else { continue }
            var chunk = [Int16](repeating: 0, count: placement.silenceBefore * channels)
            chunk += samples[(placement.dropFromStart * channels)..<(read * channels)]
            lock.lock()
            counters.silenceFrames = timeline.silenceFrames
            counters.droppedFrames = timeline.droppedFrames
            counters.chunks += 1
            lock.unlock()
            deliver(AudioChunk(pts: placement.pts, sampleRate: sampleRate, channels: channels, samples: chunk))
        }
        pcm.drop()
        let endedByItself = capture.end() && endReason != nil
        if endedByItself, let endReason { onEnd(endReason) }
    }

    /// The capture time of the first frame just read: the hardware timestamp minus the frames captured since it
    /// (those still available plus those read), on `CLOCK_MONOTONIC`.
    private func firstSampleTime(framesRead: Int) -> MediaTime {
        let stamp = pcm.monotonicTimestamps ? pcm.hardwareTimestamp() : nil
        let (available, time) = stamp ?? (0, Self.monotonicNow())
        return time - MediaTime(value: Int64(available + framesRead), timescale: sampleRate)
    }

    /// `clock_gettime(CLOCK_MONOTONIC)`, for PCMs without hardware timestamps.
    static func monotonicNow() -> MediaTime {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return .nanoseconds(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
    }
}
