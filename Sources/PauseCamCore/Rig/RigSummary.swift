import Foundation

/// The human summary `pausecam check` prints for a clean rig: lenses with their source and zoom, presets, output,
/// and each script with its steps and total scripted time. Plain text, deterministic (tests compare it).
public enum RigSummary {
    /// The summary of `rig`, headed by `file` as the user named it; ends with a newline.
    public static func text(of rig: Rig, file: String) -> String {
        var lines: [String] = ["\(file): \"\(rig.name)\" is valid"]
        let o = rig.output
        lines.append("  output: \(o.width)x\(o.height) @ \(o.rate) fps, \(o.container.rawValue), h264 \(o.preset) "
                     + "crf \(o.crf), keyframes every \(CommandParser.formatDuration(o.keyframeInterval)), "
                     + "aac \(o.audioBitrate / 1000)k")
        lines.append("          \(o.directory)/\(o.namePattern).\(o.container.rawValue)")
        let audio: String
        switch rig.audio.device {
        case .alsa(let name): audio = "ALSA \"\(name)\"" + (rig.audio.required ? " (required)" : " (optional)")
        case .virtual: audio = "virtual microphone"
        case .matched(let rule): audio = "the microphone matching \(rule)" + (rig.audio.required ? " (required)" : " (optional)")
        case .ofLens(let lens): audio = "the microphone of lens \(lens)'s camera" + (rig.audio.required ? " (required)" : " (optional)")
        case .none: audio = "none (video only)"
        }
        if rig.audio.voices.isEmpty {
            lines.append("  audio: \(audio)")
        } else {
            lines += voiceLines(rig.audio)
        }
        if let follow = rig.follow { lines += followLines(follow) }
        if let live = rig.live { lines += liveLines(live) }
        if let preroll = PrerollPolicy.summaryLine(for: rig) { lines.append(preroll) }
        if let group = rig.group {
            lines.append("  group: \(group.name) on \(group.broker), this member \(group.host ?? "(no name)"), lead "
                         + "\(CommandParser.formatDuration(group.lead))"
                         + (group.requireSync ? "" : ", records on an unsynchronised clock (require_sync: false)"))
        }
        lines.append("  lenses (default \(rig.defaultLens), standby \(rig.standby.rawValue), "
                     + "on attach \(rig.onAttach.rawValue)):")
        let width = rig.lenses.map(\.name.count).max() ?? 0
        for lens in rig.lenses {
            let source: String
            switch lens.source {
            case .camera(let rule): source = "camera \(rule)"
            case .virtual(let color): source = "virtual \(color)"
            case .file(let path, let loop): source = "file \(path)" + (loop ? " (looped)" : "")
            }
            var details = ["zoom \(CommandParser.formatNumber(lens.zoom))x", source]
            if let w = lens.width, let h = lens.height { details.append("\(w)x\(h)") }
            if let r = lens.rate { details.append("\(r) fps") }
            if lens.format != .auto { details.append(lens.format.rawValue) }
            if !lens.orientation.isUpright { details.append(lens.orientation.description) }
            lines.append("    " + lens.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                         + details.joined(separator: ", "))
        }
        lines.append("  digital zoom: at most \(CommandParser.formatNumber(rig.maxDigitalZoom))x (max_digital_zoom)")
        if !rig.zoomPresets.isEmpty {
            lines.append("  zoom presets: " + rig.zoomPresets.map { p in
                var s = "\(p.name) → \(p.lens)"
                if p.digital != 1 { s += " ×\(CommandParser.formatNumber(p.digital))" }
                if p.ramp > .zero { s += " over \(CommandParser.formatDuration(p.ramp))" }
                return s
            }.joined(separator: "; "))
        }
        if !rig.exposurePresets.isEmpty {
            lines.append("  exposure presets: " + rig.exposurePresets.map { p in
                switch p.setting {
                case .auto: return "\(p.name) (auto)"
                case .bias(let b): return "\(p.name) (bias \(b >= 0 ? "+" : "")\(CommandParser.formatNumber(b)) EV)"
                case .manual(let time, let gain):
                    return "\(p.name) (manual \(CommandParser.formatDuration(time))" + (gain.map { ", gain \($0)" } ?? "") + ")"
                }
            }.joined(separator: "; "))
        }
        for script in rig.scripts {
            lines.append("  script \(script.name) (\(DurationParser.clockString(script.scriptedTime, decimals: 2)) "
                         + "scripted, \(script.steps.count) steps, on error \(script.onError.rawValue)):")
            for step in script.steps { lines.append("    " + CommandParser.line(for: step)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `audio:` as voices: a head line, then one line per voice with its source and what differs from the defaults.
    static func voiceLines(_ audio: Rig.AudioInput) -> [String] {
        let count = audio.voices.count
        var lines = ["  audio: \(count) voice\(count == 1 ? "" : "s"), each on its own track beside the stereo mix"
                     + (audio.required ? " (required)" : " (optional)") + (audio.options.declick ? "" : ", declick off")]
        let width = audio.voices.map(\.name.count).max() ?? 0
        for voice in audio.voices {
            var details = [RigDecoder.describe(voice.source)]
            if let channel = voice.channel { details.append("channel \(channel)") }
            if voice.gainDecibels != 0 { details.append("gain \(signed(voice.gainDecibels))dB") }
            if voice.pan != 0 { details.append("pan \(signed(voice.pan))") }
            if voice.mute { details.append("muted") }
            if voice.source == .virtual {
                let v = voice.virtual
                details.append("tone \(v.frequency) Hz")
                if v.driftPPM != 0 { details.append("drift \(v.driftPPM) ppm") }
                if v.level != 1 { details.append("level \(CommandParser.formatNumber(v.level))") }
                if !v.speech.isEmpty {
                    details.append("speech " + v.speech.map {
                        "\(CommandParser.formatDuration($0.lowerBound))-\(CommandParser.formatDuration($0.upperBound))"
                    }.joined(separator: " "))
                }
            }
            lines.append("    " + voice.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                         + details.joined(separator: ", "))
        }
        return lines
    }

    /// `live:`: the webcam and each destination, its URL redacted (a stream key is never printed).
    static func liveLines(_ live: Rig.Live) -> [String] {
        var lines = ["  live (while paused: \(live.whilePaused.rawValue)):"]
        switch live.webcam {
        case .device(let node): lines.append("    webcam \(node)")
        case .label(let label): lines.append("    webcam labelled \"\(label)\"")
        case nil: break
        }
        for stream in live.streams {
            let size = stream.width.map { "\($0)x\(stream.height ?? 0)" } ?? "program size"
            lines.append("    stream \(stream.name): \(stream.url.redacted), \(size), "
                         + "\(RigDecoder.bitrateText(stream.bitrate))bit/s video, "
                         + "\(RigDecoder.bitrateText(stream.audioBitrate))bit/s AAC"
                         + (stream.startsOn ? "" : ", starts off (`live on \(stream.name)`)"))
        }
        return lines
    }

    /// `follow:`: who brings which lens, then the timing.
    static func followLines(_ follow: Rig.Follow) -> [String] {
        let lenses = follow.lenses.map { "\($0.voice) → \($0.lens)" } + ["both → \(follow.both)", "nobody → \(follow.nobody)"]
        return ["  follow (\(follow.startsOn ? "on" : "off") at start): " + lenses.joined(separator: ", "),
                "          min shot \(CommandParser.formatDuration(follow.minimumShot)), hold "
                + "\(CommandParser.formatDuration(follow.hold)), manual hold \(CommandParser.formatDuration(follow.manualHold)), "
                + "threshold \(CommandParser.formatNumber(follow.thresholdDBFS)) dBFS"]
    }

    /// `+3`, `-0.5`, `0`.
    private static func signed(_ value: Double) -> String {
        (value > 0 ? "+" : "") + CommandParser.formatNumber(value)
    }
}
