import Foundation

/// Everything a session encodes at once — the program, each ISO lens (`output.iso`) and each live stream
/// (`live.stream`) — judged against the x264
/// speeds measured for `preset: auto` (`EncoderSpeedMeasurement`), so that a machine that cannot hold them all
/// says so before anything is recorded instead of dropping program frames for the whole clip.
///
/// How the movies combine: x264 is measured at the program's size and rate, with its threads spread over every
/// core. The ISOs' encoders run beside the program's on those same cores, so what the machine must hold is the sum
/// of the pixels per second every x264 encoder is given, against the pixels per second the preset was measured to
/// encode. x264's cost grows about in proportion to a picture's pixels, a little less for smaller pictures (on two
/// cores 720p measured 2.7 to 3.1 times faster than 1080p, for 2.25 times fewer pixels), so counting pixels errs
/// on the safe side for an ISO smaller than the program. Written as frames per second at the measured size: the
/// program alone needs `headroom × rate`, as `EncoderPresetChoice` has always asked, and each x264 ISO adds
/// `headroom × its rate × its pixels ÷ the program's pixels`. An ISO passed through as the camera's JPEGs has no
/// encoder (`passesJPEGThrough`) and adds nothing.
///
/// A live stream is one more x264 encoder at its own size (the program's unless it names one), the program's rate
/// and its own preset (`streamPreset`), whatever the recording's preset is. Its share of the machine is its pixels
/// per second over what its preset was measured to encode; written at the recording's preset `P`, a stream adds
/// `headroom × its rate × its pixels ÷ the program's pixels × speed(P) ÷ speed(streamPreset)`. A stream preset that
/// was not measured (slower than one measured too slow for the program alone) makes the load not fit. Pure: the
/// measuring and the lenses' formats come from outside.
public struct EncoderLoad: Sendable, Equatable {
    /// One ISO movie as it will be recorded: its lens's own size and rate, and whether it needs an encoder.
    public struct IsoMovie: Sendable, Equatable {
        public var lens: String
        public var width: Int
        public var height: Int
        public var rate: FrameRate
        /// The lens's JPEGs go into the movie as they came: no x264 encoder, no load.
        public var passesJPEGThrough: Bool

        public init(lens: String, width: Int, height: Int, rate: FrameRate, passesJPEGThrough: Bool) {
            self.lens = lens
            self.width = width
            self.height = height
            self.rate = rate
            self.passesJPEGThrough = passesJPEGThrough
        }

        /// "wide 1920x1080 at 30 fps".
        var sizeAndRate: String { "\(lens) \(width)x\(height) at \(rate) fps" }
    }

    /// One live stream destination as it will be encoded.
    public struct LiveStream: Sendable, Equatable {
        /// Its name in `status` (`name:`, else the URL's host).
        public var name: String
        /// Where it goes; only its redacted text is ever shown.
        public var url: StreamURL
        public var width: Int
        public var height: Int
        public var rate: FrameRate

        public init(name: String, url: StreamURL, width: Int, height: Int, rate: FrameRate) {
            self.name = name
            self.url = url
            self.width = width
            self.height = height
            self.rate = rate
        }

        /// "youtube (rtmp://a.rtmp.youtube.com/…) 1280x720 at 30 fps": never the key.
        var sizeAndRate: String { "\(name) (\(url.redacted)) \(width)x\(height) at \(rate) fps" }
    }

    /// The x264 preset every live stream's encoder uses (`StreamOutput`): fast enough to leave the recording its
    /// cores, good enough at a streaming bitrate.
    public static let streamPreset = "veryfast"

    /// The ISOs, in `output.iso`'s order; empty for a program-only rig.
    public var isos: [IsoMovie]
    /// The live streams, in `live.stream`'s order; empty for a rig that streams nowhere.
    public var streams: [LiveStream]

    public init(isos: [IsoMovie] = [], streams: [LiveStream] = []) {
        self.isos = isos
        self.streams = streams
    }

    /// The ISOs of `rig` as a clip will record them (`IsoRecorder.Lens.planned`: each at its camera's size and rate
    /// from `formats`, by lens name, or the rig's; passed through or encoded).
    public init(rig: Rig, formats: [String: CameraFormat]) {
        isos = IsoRecorder.Lens.planned(for: rig, formats: formats).map {
            IsoMovie(lens: $0.role, width: $0.width, height: $0.height, rate: $0.rate,
                     passesJPEGThrough: $0.passesJPEGThrough)
        }
        let output = rig.output
        streams = (rig.live?.streams ?? []).map {
            LiveStream(name: $0.name, url: $0.url, width: $0.width ?? output.width, height: $0.height ?? output.height,
                       rate: output.rate)
        }
    }

    /// The ISOs that need an x264 encoder of their own.
    public var encodedIsos: [IsoMovie] { isos.filter { !$0.passesJPEGThrough } }

    /// Frames per second at the measured (program's) size and rate that a preset must reach to hold the program
    /// and every encoded ISO: `headroom` × the pixels per second of all of them ÷ the program's pixels. Live streams
    /// are not in it: their encoders run at `streamPreset`, whatever preset this is (see `requiredFramesPerSecond(at:in:)`).
    public func requiredFramesPerSecond(for measurement: EncoderSpeedMeasurement) -> Double {
        let programPixels = Double(max(1, measurement.width * measurement.height))
        var pixelsPerSecond = programPixels * measurement.rate.framesPerSecond
        for iso in encodedIsos {
            pixelsPerSecond += Double(iso.width * iso.height) * iso.rate.framesPerSecond
        }
        return EncoderPresetChoice.headroom * pixelsPerSecond / programPixels
    }

    /// Frames per second at the program's size that `preset` must reach to hold the program, the encoded ISOs and
    /// the live streams together: each stream's share is converted from `streamPreset`'s measured speed to
    /// `preset`'s. `.infinity` when either preset was not measured (nothing known holds it).
    public func requiredFramesPerSecond(at preset: String, in measurement: EncoderSpeedMeasurement) -> Double {
        let required = requiredFramesPerSecond(for: measurement)
        guard !streams.isEmpty else { return required }
        guard let presetSpeed = measurement.framesPerSecond(of: preset),
              let streamSpeed = measurement.framesPerSecond(of: Self.streamPreset), streamSpeed > 0 else {
            return .infinity
        }
        let programPixels = Double(max(1, measurement.width * measurement.height))
        var streamPixelsPerSecond = 0.0
        for stream in streams {
            streamPixelsPerSecond += Double(stream.width) * Double(stream.height) * stream.rate.framesPerSecond
        }
        return required + EncoderPresetChoice.headroom * streamPixelsPerSecond / programPixels
            * presetSpeed / streamSpeed
    }

    /// Whether `preset` holds the whole load. A preset not measured is slower than the last one measured, which
    /// was too slow for the program alone (the measurement stops there), so it does not hold.
    public func fits(_ preset: String, in measurement: EncoderSpeedMeasurement) -> Bool {
        guard let fps = measurement.framesPerSecond(of: preset) else { return false }
        return fps >= requiredFramesPerSecond(at: preset, in: measurement)
    }

    /// What `preset: auto` chooses for the whole load: the slowest preset of the leading run that holds it,
    /// `ultrafast` when none does. Without encoded ISOs, exactly `EncoderPresetChoice.choose`.
    public func choose(_ measurement: EncoderSpeedMeasurement) -> String {
        var chosen = EncoderPresetChoice.ladder[0]
        for preset in EncoderPresetChoice.ladder {
            guard fits(preset, in: measurement) else { break }
            chosen = preset
        }
        return chosen
    }

    /// Why `choose` may differ from the program's own choice, for the line that names it ("for the program and 2
    /// encoded ISOs together"); nil when nothing is encoded beside the program.
    public var choiceReason: String? {
        let count = encodedIsos.count
        guard count > 0 || !streams.isEmpty else { return nil }
        var parts: [String] = []
        if count > 0 { parts.append("\(count) encoded ISO\(count == 1 ? "" : "s")") }
        if !streams.isEmpty { parts.append("\(streams.count) live stream\(streams.count == 1 ? "" : "s")") }
        return "for the program and \(parts.joined(separator: " and ")) together"
    }

    /// Why the ISOs and live streams are refused at `preset`, with what to do; nil when there is no encoded ISO and
    /// no stream (the program alone is `EncoderPresetChoice.warning`'s business) or when the whole load fits. `presetIsAuto` says the rig
    /// wrote `preset: auto` (and `preset` is its choice): a faster preset is then no advice, auto took the fastest.
    public func refusal(at preset: String, in measurement: EncoderSpeedMeasurement, presetIsAuto: Bool) -> String? {
        let encoded = encodedIsos
        guard !encoded.isEmpty || !streams.isEmpty, !fits(preset, in: measurement) else { return nil }
        let required = requiredFramesPerSecond(at: preset, in: measurement)
        let program = "\(measurement.width)x\(measurement.height) at \(measurement.rate) fps"
        let managed = measurement.framesPerSecond(of: preset).map { String(format: "%.1f fps", $0) }
            ?? "less than the last preset measured"
        var advice: [String] = []
        if !presetIsAuto {
            let faster = EncoderPresetChoice.ladder.prefix(while: { $0 != preset }).last(where: { fits($0, in: measurement) })
            if let faster { advice.append("use a faster preset (`preset: auto` chooses \(choose(measurement)); \(faster) fits)") }
        }
        // The longest run of the list, in its order, that the machine holds (passed-through lenses cost nothing
        // and stay): at the named preset, else at the preset auto would choose for that shorter list.
        func longestRun(atNamedPreset: Bool) -> [String]? {
            for count in stride(from: encoded.count - 1, through: 0, by: -1) {
                let keptEncoded = Set(encoded.prefix(count).map(\.lens))
                let trial = EncoderLoad(isos: isos.filter { $0.passesJPEGThrough || keptEncoded.contains($0.lens) },
                                        streams: streams)
                if trial.fits(atNamedPreset ? preset : trial.choose(measurement), in: measurement) {
                    return trial.isos.map(\.lens)
                }
            }
            return nil
        }
        let keptAtPreset = presetIsAuto ? nil : longestRun(atNamedPreset: true)
        let kept = keptAtPreset ?? longestRun(atNamedPreset: false)
        let withAuto = keptAtPreset == nil && !presetIsAuto ? " with `preset: auto`" : ""
        if let kept, !kept.isEmpty {
            advice.append("record fewer lenses (`iso: [\(kept.joined(separator: ", "))]` fits\(withAuto))")
        } else if kept != nil {
            advice.append("record no ISO (remove `iso:`)")
        }
        if !encoded.isEmpty {
            advice.append("give the ISO lenses smaller sizes or lower rates")
            advice.append("use MJPEG lenses (`format: mjpeg`, an MJPEG file), whose ISOs are passed through with no encoder")
        }
        if !streams.isEmpty {
            advice.append("stream to fewer destinations or give the streams a smaller `size:`")
        }
        var parts: [String] = []
        if !encoded.isEmpty {
            let plural = encoded.count == 1 ? "" : "s"
            parts.append("\(encoded.count) ISO\(plural) (\(encoded.map(\.sizeAndRate).joined(separator: ", ")))")
        }
        if !streams.isEmpty {
            let plural = streams.count == 1 ? "" : "s"
            parts.append("\(streams.count) live stream\(plural) at x264 preset \(Self.streamPreset) "
                         + "(\(streams.map(\.sizeAndRate).joined(separator: ", ")))")
        }
        let need = required.isFinite
            ? String(format: "%.1f fps of the program's size (%.1f × their pixels per second)", required,
                     EncoderPresetChoice.headroom)
            : "a speed that was not measured (preset \(Self.streamPreset) is slower than the last preset measured)"
        let refused = encoded.isEmpty ? "live streaming is refused"
            : streams.isEmpty ? "ISO is refused" : "ISO and live streaming are refused"
        return "this machine cannot encode the program (\(program)) and \(parts.joined(separator: " and ")) at once: "
            + "together they need x264 preset \(preset) to encode \(need)"
            + ", and it manages \(managed); encoding them would drop program frames, so \(refused). To record: "
            + advice.joined(separator: "; ")
    }

    /// The lines `pausecam check --measure` prints under the speeds: each ISO's and each live stream's size, rate
    /// and encoder, and whether the program, the ISOs and the streams fit at `preset`.
    public func report(at preset: String, in measurement: EncoderSpeedMeasurement) -> String {
        guard !isos.isEmpty || !streams.isEmpty else { return "" }
        let beside = [isos.isEmpty ? nil : "ISOs", streams.isEmpty ? nil : "live streams"].compactMap { $0 }
        var lines = ["\(beside.joined(separator: " and ")) beside the program "
                     + "(\(measurement.width)x\(measurement.height) at \(measurement.rate) fps):"]
        for iso in isos {
            lines.append("  \(iso.sizeAndRate): " + (iso.passesJPEGThrough ? "MJPEG passed through (no encoder)" : "x264"))
        }
        for stream in streams {
            lines.append("  stream \(stream.sizeAndRate): x264 \(Self.streamPreset)")
        }
        let verdict = fits(preset, in: measurement) ? "fit" : "do not fit"
        let count = encodedIsos.count
        let streamCount = streams.count
        let streamPart = streams.isEmpty ? "" : " and \(streamCount) live stream\(streamCount == 1 ? "" : "s")"
        let required = requiredFramesPerSecond(at: preset, in: measurement)
        lines.append("  program plus \(count) encoded ISO\(count == 1 ? "" : "s")\(streamPart) need "
                     + (required.isFinite ? String(format: "%.1f", required) : "more than the measured")
                     + " fps at the program's size: \(verdict) at \(preset)")
        return lines.joined(separator: "\n") + "\n"
    }
}
