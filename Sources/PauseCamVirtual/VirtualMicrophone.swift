import Foundation
import PauseCamCore

/// A microphone that produces PauseCam's documented test sound: 48 kHz mono silence, except the sync beep — a
/// 1 kHz tone at −6 dBFS for 100 ms starting exactly at each whole second of the clock (see `SyncSchedule`).
///
/// Sample k is captured at k / 48000 s on the clock; chunks of 10 ms are delivered through the scheduler when their
/// last sample has been captured, as a real capture device would.
public final class VirtualMicrophone: Microphone, @unchecked Sendable {
    public let displayName = "Virtual microphone (sync beeps)"
    public let sampleRate: Int32 = 48_000
    public let channels = 1
    /// Sample frames per delivered chunk.
    public let chunkFrames: Int64 = 480

    private let scheduler: any Scheduler
    private let lock = NSLock()
    private var running = false
    private var generation = 0
    /// One second of samples, beep included: every second sounds the same, so it is computed once.
    private let second: [Int16]

    public init(scheduler: any Scheduler) {
        self.scheduler = scheduler
        let rate = Int(sampleRate)
        let beepSamples = Int(SyncSchedule.beepDuration.value) * rate / Int(SyncSchedule.beepDuration.timescale)
        var samples = [Int16](repeating: 0, count: rate)
        for k in 0..<beepSamples {
            let phase = 2.0 * Double.pi * Double(SyncSchedule.beepFrequency) * Double(k) / Double(rate)
            samples[k] = Int16((Double(SyncSchedule.beepAmplitude) * sin(phase)).rounded())
        }
        second = samples
    }

    public func start(deliver: @escaping @Sendable (AudioChunk) -> Void,
                      onEnd: @escaping @Sendable (String) -> Void) throws {
        let myGeneration: Int = lock.withLock {
            running = true
            generation += 1
            return generation
        }
        let now = scheduler.clock.now()
        let firstSample = ((try? now.rescaled(to: sampleRate, rounding: .up).value) ?? 0)
        let firstChunk = (firstSample + chunkFrames - 1) / chunkFrames * chunkFrames
        tick(firstSample: firstChunk, generation: myGeneration, deliver: deliver)
    }

    private func tick(firstSample: Int64, generation myGeneration: Int, deliver: @escaping @Sendable (AudioChunk) -> Void) {
        let deliveryTime = MediaTime(value: firstSample + chunkFrames, timescale: sampleRate)
        scheduler.schedule(at: deliveryTime) { [weak self] in
            guard let self else { return }
            let live = self.lock.withLock { self.running && self.generation == myGeneration }
            guard live else { return }
            deliver(self.chunk(startingAt: firstSample))
            self.tick(firstSample: firstSample + self.chunkFrames, generation: myGeneration, deliver: deliver)
        }
    }

    /// The chunk whose first sample is sample number `firstSample` of the clock.
    public func chunk(startingAt firstSample: Int64) -> AudioChunk {
        let rate = Int64(sampleRate)
        var samples = [Int16](repeating: 0, count: Int(chunkFrames))
        for i in 0..<Int(chunkFrames) {
            let k = firstSample + Int64(i)
            samples[i] = second[Int(((k % rate) + rate) % rate)]
        }
        return AudioChunk(pts: MediaTime(value: firstSample, timescale: sampleRate), sampleRate: sampleRate,
                          channels: channels, samples: samples)
    }

    public func stop() {
        lock.withLock {
            running = false
            generation += 1
        }
    }
}
