import Foundation

/// Which x264 preset a machine can hold in real time, decided from measured speeds (`preset: auto`).
///
/// Why: a preset that is too slow for the machine does not fail, it drops frames for the whole recording, and the
/// user finds out afterwards. So `auto` picks the slowest (best-compressing) preset whose measured speed on
/// camera-like frames is at least `headroom` times the output rate — the headroom leaves room for capture, colour
/// conversion, audio and a second lens. Speeds are measured fastest first and the measurement stops at the first
/// preset too slow, so only a run of fast-enough presets from the fastest counts: a slower preset that happened to
/// measure faster than a faster one (noise on a loaded machine) is not trusted. Pure: the measuring is elsewhere.
public enum EncoderPresetChoice {
    /// x264's presets, fastest first (`placebo` is never chosen).
    public static let ladder = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
                                "veryslow"]
    /// The rig value that asks for a measured choice.
    public static let auto = "auto"
    /// Encoding speed needed, as a multiple of the output rate.
    public static let headroom = 1.5

    /// Frames per second a preset must reach for `rate`.
    public static func requiredFramesPerSecond(for rate: FrameRate) -> Double {
        headroom * rate.framesPerSecond
    }

    /// The slowest preset of the leading run (in ladder order) that reaches the required speed; `ultrafast` when
    /// none does (nothing faster exists; the caller warns).
    public static func choose(_ measurement: EncoderSpeedMeasurement) -> String {
        let required = requiredFramesPerSecond(for: measurement.rate)
        var chosen = ladder[0]
        for preset in ladder {
            guard let fps = measurement.framesPerSecond(of: preset), fps >= required else { break }
            chosen = preset
        }
        return chosen
    }

    /// A warning for a rig that names `preset` when the measurement shows it too slow, else nil. A preset slower
    /// than one measured too slow is too slow as well (the measurement stopped there).
    ///
    /// `chosenByAuto` says the rig wrote `preset: auto` and `preset` is what it chose: advice to use `auto` would
    /// then send the user to what they already have, so only a smaller size or a lower rate is offered.
    public static func warning(for preset: String, in measurement: EncoderSpeedMeasurement,
                               chosenByAuto: Bool = false) -> String? {
        let required = requiredFramesPerSecond(for: measurement.rate)
        let size = "\(measurement.width)x\(measurement.height) at \(measurement.rate) fps"
        let advice = chosenByAuto
            ? "`preset: auto` has no faster preset to choose: use a smaller size or a lower rate, or frames will be dropped"
            : "use `preset: auto` (here: \(choose(measurement))) or a smaller size, or frames will be dropped"
        if let fps = measurement.framesPerSecond(of: preset) {
            guard fps < required else { return nil }
            return String(format: "x264 preset %@ encodes %@ camera-like frames at %.1f fps on this machine, below the "
                          + "%.1f fps it needs (%.1f × the rate); ", preset, size, fps, required, headroom) + advice
        }
        guard let rank = ladder.firstIndex(of: preset),
              let slowest = ladder[..<rank].last(where: { measurement.framesPerSecond(of: $0) != nil }),
              let fps = measurement.framesPerSecond(of: slowest), fps < required else { return nil }
        return String(format: "x264 preset %@ is slower than %@, which encodes %@ camera-like frames at only %.1f fps "
                      + "on this machine (%.1f fps needed); ", preset, slowest, size, fps, required) + advice
    }
}

/// Measured x264 speeds for one canvas size and rate on one machine, fastest preset first.
public struct EncoderSpeedMeasurement: Sendable, Equatable {
    /// One preset's speed.
    public struct Sample: Sendable, Equatable {
        public var preset: String
        public var framesPerSecond: Double
        public init(preset: String, framesPerSecond: Double) {
            self.preset = preset
            self.framesPerSecond = framesPerSecond
        }
    }

    public var width: Int
    public var height: Int
    public var rate: FrameRate
    public var samples: [Sample]

    public init(width: Int, height: Int, rate: FrameRate, samples: [Sample]) {
        self.width = width
        self.height = height
        self.rate = rate
        self.samples = samples
    }

    /// The measured speed of `preset`, nil when it was not measured.
    public func framesPerSecond(of preset: String) -> Double? {
        samples.first { $0.preset == preset }?.framesPerSecond
    }

    /// One line per preset and the choice of the program alone.
    public var report: String { report(autoChoice: EncoderPresetChoice.choose(self)) }

    /// One line per preset and `autoChoice`, the one preset `auto` takes here, as `pausecam check --measure` prints
    /// them: with ISOs or live streams beside the program that is the choice for them all (`EncoderLoad.choose`),
    /// said with `reason`, so the report never names two choices.
    public func report(autoChoice: String, because reason: String? = nil) -> String {
        var lines = ["encoder speed, \(width)x\(height) at \(rate) fps, camera-like frames (needs "
                     + String(format: "%.1f fps):", EncoderPresetChoice.requiredFramesPerSecond(for: rate))]
        for sample in samples {
            let ok = sample.framesPerSecond >= EncoderPresetChoice.requiredFramesPerSecond(for: rate)
            lines.append(String(format: "  %@ %.1f fps%@", sample.preset, sample.framesPerSecond,
                                ok ? "" : " (too slow)"))
        }
        lines.append("  auto chooses: \(autoChoice)" + (reason.map { " (\($0))" } ?? ""))
        return lines.joined(separator: "\n") + "\n"
    }
}
