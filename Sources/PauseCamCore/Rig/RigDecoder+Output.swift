/// `output:`: where movies go, how they are named, and how they are encoded.
extension RigDecoder {
    /// The keys of `output:`.
    enum OutputKey: String, RigKey {
        case directory, name, container, size, fps, video, audio, exports, iso
    }

    /// The keys of `output.video:`.
    enum VideoKey: String, RigKey {
        case codec, preset, crf
        case keyframeInterval = "keyframe_interval"
    }

    /// The keys of `output.audio:`.
    enum OutputAudioKey: String, RigKey {
        case codec, bitrate
    }

    static let x264Presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
                              "veryslow", "placebo", "auto"]
    static let namePlaceholders = ["rig", "date", "time", "script"]

    mutating func outputSettings(_ node: YAMLNode, _ path: KeyPath) -> Rig.OutputSettings {
        // A rig that names no preset gets `auto`: the fastest machine and the slowest both keep their frames.
        var settings = Rig.OutputSettings(preset: EncoderPresetChoice.auto)
        guard let f = fields(node, path, OutputKey.self) else { return settings }
        if let n = f[.directory], let d = text(n, path.child(OutputKey.directory)) {
            settings.directory = d
            outputDirectoryMark = n.mark
        }
        if let n = f[.name], let pattern = text(n, path.child(OutputKey.name)) {
            if checkNamePattern(pattern, n, path.child(OutputKey.name)) {
                settings.namePattern = pattern
                outputNameMark = n.mark
            }
        }
        if let n = f[.container], let c = choice(n, path.child(OutputKey.container), MovieSettings.Container.self) {
            settings.container = c
        }
        if let n = f[.size], let s = value(n, path.child(OutputKey.size), RigValueParser.size) {
            (settings.width, settings.height) = s
        }
        if let n = f[.fps], let r = value(n, path.child(OutputKey.fps), RigValueParser.frameRate) { settings.rate = r }
        if let n = f[.exports] { settings.exports = exportFormats(n, path.child(OutputKey.exports)) }
        // Read once the lenses are known (`isoLenses`): the list names them.
        outputIsoNode = f[.iso]
        if let n = f[.video] { video(n, path.child(OutputKey.video), into: &settings) }
        if let n = f[.audio], let a = fields(n, path.child(OutputKey.audio), OutputAudioKey.self) {
            let ap = path.child(OutputKey.audio)
            if let c = a[.codec], let codec = text(c, ap.child(OutputAudioKey.codec)), codec != "aac" {
                report("\"\(codec)\" is not supported; the only audio codec is aac", at: c.mark,
                       path: ap.child(OutputAudioKey.codec))
            }
            if let b = a[.bitrate], let bits = value(b, ap.child(OutputAudioKey.bitrate), RigValueParser.bitrate) {
                settings.audioBitrate = bits
            }
        }
        return settings
    }

    /// `output.video:`: h264 only, an x264 preset, a CRF and the keyframe interval.
    private mutating func video(_ node: YAMLNode, _ vp: KeyPath, into settings: inout Rig.OutputSettings) {
        guard let v = fields(node, vp, VideoKey.self) else { return }
        if let c = v[.codec], let codec = text(c, vp.child(VideoKey.codec)), codec != "h264" {
            report("\"\(codec)\" is not supported; the only video codec is h264", at: c.mark,
                   path: vp.child(VideoKey.codec))
        }
        if let p = v[.preset], let preset = text(p, vp.child(VideoKey.preset)) {
            if Self.x264Presets.contains(preset) { settings.preset = preset } else {
                report("\"\(preset)\" is not an x264 preset" + suggestion(preset, Self.x264Presets,
                       orList: true), at: p.mark, path: vp.child(VideoKey.preset))
            }
        }
        if let c = v[.crf], let crf = integer(c, vp.child(VideoKey.crf), in: 0...51, what: "a CRF from 0 to 51") {
            settings.crf = crf
        }
        if let k = v[.keyframeInterval],
           let d = duration(k, vp.child(VideoKey.keyframeInterval), max: .seconds(60), positive: true) {
            settings.keyframeInterval = d
        }
    }

    /// `output.iso:`: `true` records every lens beside the program (in file order), `false` none, a list the lenses
    /// it names (in the list's order, each once). An unknown lens is reported where it is written, with the nearest
    /// declared name.
    mutating func isoLenses(_ node: YAMLNode, _ path: KeyPath, lenses: [String]) -> [String] {
        guard let items = node.items else {
            switch node.text {
            case "true": return lenses
            case "false": return []
            default:
                report("expected true, false or a list of lenses (\(lenses.joined(separator: ", "))), found "
                       + node.kindDescription, at: node.mark, path: path)
                return []
            }
        }
        var chosen: [String] = []
        for item in items {
            guard let name = text(item, path) else { continue }
            guard lenses.contains(name) else {
                report("unknown lens \"\(name)\"" + suggestion(name, lenses, orList: true), at: item.mark, path: path)
                continue
            }
            if !chosen.contains(name) { chosen.append(name) }
        }
        return chosen
    }

    /// Warns for each ISO lens whose `fps:` is not a whole multiple of the movie's rate (a lens without `fps:`
    /// runs at whatever its camera gives, unknown here). An ISO's grid restarts where the program's stretches start,
    /// which fall on the movie's frames: only a lens rate that is a multiple of the movie's has a frame edge at
    /// every one of them.
    mutating func warnIsoRates(_ lenses: [Rig.Lens], movieRate: FrameRate, at mark: SourceMark, path: KeyPath) {
        for lens in lenses {
            guard let rate = lens.rate else { continue }
            // rate / movieRate = (rate.n · movie.d) / (rate.d · movie.n), a whole number or not.
            let numerator = Int64(rate.numerator) * Int64(movieRate.denominator)
            let denominator = Int64(rate.denominator) * Int64(movieRate.numerator)
            guard numerator % denominator != 0 else { continue }
            warn(.isoRateNotAMultiple,
                 "lens \(lens.name) records its ISO at \(rate) fps, not a multiple of the movie's \(movieRate) fps: a "
                 + "pause or cut inside one of its frames shortens that frame, so its ISO is not constant-rate (some "
                 + "editors refuse that); give the lens fps: \(movieRate) or a multiple of it",
                 at: mark, path: path)
        }
    }

    private mutating func checkNamePattern(_ pattern: String, _ node: YAMLNode, _ path: KeyPath) -> Bool {
        if pattern.contains("/") {
            report("a file name cannot contain \"/\" (set the folder with \"directory\")", at: node.mark, path: path)
            return false
        }
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                report("\"{\" without \"}\" in \"\(pattern)\"", at: node.mark, path: path)
                return false
            }
            let word = String(rest[rest.index(after: open)..<close])
            if !Self.namePlaceholders.contains(word) {
                report("unknown placeholder {\(word)}" + suggestion(word, Self.namePlaceholders, orList: true),
                       at: node.mark, path: path)
                return false
            }
            rest = rest[rest.index(after: close)...]
        }
        return true
    }
}
