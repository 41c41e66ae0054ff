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
        lines.append("  audio: \(audio)")
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
}
