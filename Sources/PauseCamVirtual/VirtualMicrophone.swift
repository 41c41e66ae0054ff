import Foundation
import PauseCamCore

/// A microphone that produces PauseCam's documented test sound: 48 kHz mono silence, except the sync beep — a
/// 1 kHz tone at −6 dBFS for 100 ms starting exactly at each whole second of the clock (see `SyncSchedule`).
/// With `tone` it plays a continuous sine at −12 dBFS instead of the beeps (clicks and dropped samples show up in
/// it); with `driftPPM` its sample clock runs fast or slow against the session clock (`VirtualSoundClock`); `level`
/// scales everything (0: a silent input).
///
/// Sample k is captured at `VirtualSoundClock.time(ofSample: k)` (k / 48000 s without drift); chunks of 480
/// samples are delivered through the serial context when their last sample has been captured, as a real capture device
/// would. `unplug()` and `plugBack()` behave like a USB microphone pulled out and put back mid-clip.
public final class VirtualMicrophone: Microphone, Sendable {
    public let displayName: String
    public let sampleRate: Int32 = 48_000
    public let channels = 1
    /// Sample frames per delivered chunk.
    public let chunkFrames: Int64 = 480
    /// The tone's amplitude, −12 dBFS of full-scale 16-bit.
    public static let toneAmplitude = 8_231.0

    private let serialContext: any SerialContext
    /// Started, stopped, unplugged and plugged back from any thread, read by the ticks on the serial context.
    private struct State {
        var running = false
        /// Bumped by every start, stop and unplug, so the ticks of an earlier run end.
        var generation = 0
        var deliver: (@Sendable (AudioChunk) -> Void)?
        var onEnd: (@Sendable (String) -> Void)?
        /// The clock's reading at the first start: `speech` spans count from it (the rig's start).
        var origin: MediaTime?
    }

    private let state = Guarded(State())
    /// One second of samples, beep included: without drift or tone every second sounds the same, so it is computed
    /// once.
    private let second: [Int16]
    private let clock: VirtualSoundClock
    private let toneFrequency: Int?
    private let level: Double
    /// The beeps' frequency (a voice's own, so tests tell voices apart).
    private let beepFrequency: Int
    /// Spans of the session clock, counted from its first start (the rig's), in which it "talks": a continuous sine
    /// at `beepFrequency`, −12 dBFS. A voice that
    /// talks is silent between its spans (no beeps), as a person is between sentences: `follow` judges it.
    private let speech: [Range<MediaTime>]

    /// A microphone ticking on `serialContext`; `tone` (Hz) replaces the beeps by a continuous sine, `driftPPM` makes
    /// its sample clock fast or slow, `level` (0…1) scales its output.
    /// `beepFrequency` gives the beeps (and the speech) another pitch than the documented 1 kHz; `speech` lists the
    /// spans of the session clock in which it plays a continuous sine instead (a voice talking, for `follow`).
    public init(serialContext: any SerialContext, tone: Int? = nil, driftPPM: Int = 0, level: Double = 1,
                beepFrequency: Int = SyncSchedule.beepFrequency, speech: [Range<MediaTime>] = []) {
        self.serialContext = serialContext
        self.toneFrequency = tone
        self.level = level
        self.beepFrequency = beepFrequency
        self.speech = speech
        self.clock = VirtualSoundClock(nominalRate: 48_000, ppm: driftPPM)
        var name = tone.map { "Virtual microphone (\($0) Hz tone" } ?? "Virtual microphone (sync beeps"
        if driftPPM != 0 { name += ", \(driftPPM > 0 ? "+" : "")\(driftPPM) ppm" }
        if level != 1 { name += ", level \(level)" }
        if beepFrequency != SyncSchedule.beepFrequency { name += ", \(beepFrequency) Hz beeps" }
        if !speech.isEmpty { name += ", speech" }
        displayName = name + ")"
        let rate = Int(sampleRate)
        let beepSamples = Int(SyncSchedule.beepDuration.value) * rate / Int(SyncSchedule.beepDuration.timescale)
        var samples = [Int16](repeating: 0, count: rate)
        for k in 0..<beepSamples {
            let phase = 2.0 * Double.pi * Double(beepFrequency) * Double(k) / Double(rate)
            samples[k] = Int16((Double(SyncSchedule.beepAmplitude) * sin(phase)).rounded())
        }
        second = samples
    }

    public func start(deliver: @escaping @Sendable (AudioChunk) -> Void,
                      onEnd: @escaping @Sendable (String) -> Void) throws {
        let now = serialContext.clock.now()
        let myGeneration: Int = state.withLock { state in
            if state.origin == nil { state.origin = now }
            state.running = true
            state.generation += 1
            state.deliver = deliver
            state.onEnd = onEnd
            return state.generation
        }
        startTicking(generation: myGeneration, deliver: deliver)
    }

    private func startTicking(generation myGeneration: Int, deliver: @escaping @Sendable (AudioChunk) -> Void) {
        let firstSample = clock.firstSample(atOrAfter: serialContext.clock.now())
        let firstChunk = (firstSample + chunkFrames - 1) / chunkFrames * chunkFrames
        tick(firstSample: firstChunk, generation: myGeneration, deliver: deliver)
    }

    private func tick(firstSample: Int64, generation myGeneration: Int, deliver: @escaping @Sendable (AudioChunk) -> Void) {
        let deliveryTime = clock.time(ofSample: firstSample + chunkFrames)
        serialContext.schedule(at: deliveryTime) { [weak self] in
            guard let self else { return }
            let live = self.state.withLock { $0.running && $0.generation == myGeneration }
            guard live else { return }
            deliver(self.chunk(startingAt: firstSample))
            self.tick(firstSample: firstSample + self.chunkFrames, generation: myGeneration, deliver: deliver)
        }
    }

    /// The chunk whose first sample is sample number `firstSample` of the microphone's clock.
    public func chunk(startingAt firstSample: Int64) -> AudioChunk {
        var samples = [Int16](repeating: 0, count: Int(chunkFrames))
        let origin = speech.isEmpty ? .zero : state.withLock { $0.origin } ?? .zero
        let start = clock.time(ofSample: firstSample) - origin
        let end = clock.time(ofSample: firstSample + chunkFrames) - origin
        let talks = speech.contains { $0.lowerBound < end && start < $0.upperBound }
        for i in 0..<Int(chunkFrames) {
            let k = firstSample + Int64(i)
            if talks, speech.contains(where: { $0.contains(clock.time(ofSample: k) - origin) }) {
                let phase = clock.phase(ofSample: k, frequency: Int64(beepFrequency))
                samples[i] = Int16((Self.toneAmplitude * sin(2 * Double.pi * phase) * level).rounded())
            } else if speech.isEmpty {
                samples[i] = sample(k)
            }
        }
        return AudioChunk(pts: clock.time(ofSample: firstSample), sampleRate: sampleRate, channels: channels,
                          samples: samples)
    }

    /// Sample k: the tone, or the beep where its second has one; scaled by `level`.
    private func sample(_ k: Int64) -> Int16 {
        let value: Double
        if let toneFrequency {
            value = Self.toneAmplitude * sin(2 * Double.pi * clock.phase(ofSample: k, frequency: Int64(toneFrequency)))
        } else if clock.ppm == 0 {
            let rate = Int64(sampleRate)
            let raw = second[Int(((k % rate) + rate) % rate)]
            if level == 1 { return raw }
            value = Double(raw)
        } else {
            // The beep starts at each whole second of the session clock, whatever the sample clock does.
            let (_, offset) = clock.secondAndOffset(ofSample: k)
            let beepTenths = Int64(SyncSchedule.beepDuration.value) * 10 / Int64(SyncSchedule.beepDuration.timescale)
            guard offset * 10 < clock.denominator * beepTenths else { return 0 }
            let cycles = (Int64(beepFrequency) * offset) % clock.denominator
            value = Double(SyncSchedule.beepAmplitude) * sin(2 * Double.pi * Double(cycles) / Double(clock.denominator))
        }
        return Int16((value * level).rounded())
    }

    public func stop() {
        state.withLock { state in
            state.running = false
            state.generation += 1
            state.deliver = nil
            state.onEnd = nil
        }
    }

    /// Behaves like a USB microphone put back after `unplug()`: chunks come again, from the current time, to the
    /// same receiver. Does nothing unless unplugged.
    public func plugBack() {
        let resumed: (Int, @Sendable (AudioChunk) -> Void)? = state.withLock { state in
            guard !state.running, let deliver = state.deliver else { return nil }
            state.running = true
            state.generation += 1
            return (state.generation, deliver)
        }
        if let (generation, deliver) = resumed { startTicking(generation: generation, deliver: deliver) }
    }

    /// Behaves like a USB microphone pulled out mid-clip: chunks stop and `onEnd` is called once with `reason`.
    /// For fault tests of the recorder's silence-and-go-on.
    public func unplug(reason: String = "unplugged") {
        let end: (@Sendable (String) -> Void)? = state.withLock { state in
            let end = state.running ? state.onEnd : nil
            state.running = false
            state.generation += 1
            return end
        }
        end?(reason)
    }
}
