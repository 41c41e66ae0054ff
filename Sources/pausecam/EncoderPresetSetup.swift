import Foundation
import PauseCamCore
import PauseCamSystem

/// Settles the rig's x264 preset before a session starts: `preset: auto` becomes the measured choice (measured once
/// per machine, size and rate, then read from the cache), and a named preset that a cached measurement shows too
/// slow gets a warning with the figure. A session with a named preset and no x264-encoded ISO is never delayed by a
/// measurement.
///
/// ISOs (`output.iso`): each ISO lens that is x264-encoded is one more encoder on the same cores, so `auto` chooses
/// for the program and those ISOs together (`EncoderLoad`), and when even that choice (or the named preset) cannot
/// hold them, the session is refused before anything is recorded, with what to do: ISOs recorded at the price of
/// program frames dropped for the whole clip would spoil the one movie the user surely wants, and a program recorded
/// without the ISOs asked for would be found out only afterwards. To judge that, a rig with encoded ISOs is measured
/// once even when it names its preset. MJPEG lenses passed through cost no encoder and never count. Each live stream
/// (`live.stream`) is one more x264 encoder too, at its own size and preset, counted and refused the same way.
///
/// `PAUSECAM_FAULT_ENCODER_FPS="ultrafast=300,veryfast=20"` replaces the timing with these speeds (tests: no
/// real timing on a loaded machine); the cache is still read and written as usual.
enum EncoderPresetSetup {
    /// What `preset: auto` means on the simulated clock, where the encoder sets the pace and real time never
    /// matters: a fixed preset, so a simulated run never measures, prints the same on every machine, and makes
    /// the same movie whatever a cache holds.
    static let simulatedClockPreset = "veryfast"

    /// `rig` with a concrete preset; `isos` are its ISO movies and live streams as they will be encoded; `notify`
    /// receives the measuring notice and the warnings. Throws a `RigError` at `output.iso` (the rig's name when it
    /// has none) when the measured (or cached) speed cannot hold the program, the encoded ISOs and the streams. On the `simulated` clock nothing is measured, warned
    /// about or refused: `auto` is `simulatedClockPreset`.
    static func resolve(_ rig: Rig, isos: EncoderLoad = EncoderLoad(), simulated: Bool = false,
                        environment: [String: String] = ProcessInfo.processInfo.environment,
                        notify: (EngineNotice) -> Void) throws -> Rig {
        var rig = rig
        if simulated {
            if rig.output.preset == EncoderPresetChoice.auto { rig.output.preset = simulatedClockPreset }
            return rig
        }
        let output = rig.output
        let cache = EncoderSpeedCache(environment: environment)
        let isAuto = output.preset == EncoderPresetChoice.auto
        var measurement = cache.measurement(width: output.width, height: output.height, rate: output.rate)
        if measurement == nil && (isAuto || !isos.encodedIsos.isEmpty || !isos.streams.isEmpty) {
            notify(.measuringEncoder(width: output.width, height: output.height, rate: "\(output.rate)",
                                     cachePath: cache.path))
            measurement = try? measureAndStore(width: output.width, height: output.height, rate: output.rate,
                                              cache: cache, environment: environment, notify: notify)
        }
        guard let measurement else {
            if isAuto {
                rig.output.preset = EncoderPresetChoice.ladder[0]
                notify(.encoderNotMeasured(preset: rig.output.preset))
            }
            return rig
        }
        if isAuto { rig.output.preset = isos.choose(measurement) }
        if let warning = EncoderPresetChoice.warning(for: rig.output.preset, in: measurement, chosenByAuto: isAuto) {
            notify(.presetTooSlow(advice: warning))
        }
        if let refusal = isos.refusal(at: rig.output.preset, in: measurement, presetIsAuto: isAuto) {
            throw RigError(refusal, at: output.isoMark ?? SourceMark(file: rig.name, line: 0, column: 0))
        }
        return rig
    }

    /// Measures (or takes the fault-injected speeds) and stores the result in `cache`. A cache that cannot be
    /// written is a warning: the measurement still serves this run.
    static func measureAndStore(width: Int, height: Int, rate: FrameRate, cache: EncoderSpeedCache,
                                environment: [String: String], notify: (EngineNotice) -> Void) throws
        -> EncoderSpeedMeasurement {
        let measurement: EncoderSpeedMeasurement
        if let injected = environment["PAUSECAM_FAULT_ENCODER_FPS"] {
            measurement = injectedMeasurement(injected, width: width, height: height, rate: rate)
        } else {
            measurement = try EncoderSpeedMeter.measure(width: width, height: height, rate: rate)
        }
        do { try cache.store(measurement) } catch { notify(.encoderSpeedNotCached(reason: "\(error)")) }
        return measurement
    }

    /// Speeds from `preset=fps,…`, in ladder order, stopping (like the meter) after the first too slow.
    static func injectedMeasurement(_ text: String, width: Int, height: Int, rate: FrameRate) -> EncoderSpeedMeasurement {
        var given: [String: Double] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let fps = Double(parts[1]) { given[String(parts[0])] = fps }
        }
        var samples: [EncoderSpeedMeasurement.Sample] = []
        for preset in EncoderPresetChoice.ladder {
            guard let fps = given[preset] else { break }
            samples.append(.init(preset: preset, framesPerSecond: fps))
            if fps < EncoderPresetChoice.requiredFramesPerSecond(for: rate) { break }
        }
        return EncoderSpeedMeasurement(width: width & ~1, height: height & ~1, rate: rate, samples: samples)
    }
}
