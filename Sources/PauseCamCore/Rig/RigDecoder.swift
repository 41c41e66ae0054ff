/// Turns a rig file's node tree into a validated `Rig`, collecting every problem of the file (not only the first)
/// as positioned diagnostics. Pure Swift: the tree may come from libyaml (PauseCamSystem's `YAMLParser`) or be
/// built by hand in a test.
///
/// Values keep their written text where Core must not interpret the machine (`output.directory` keeps its `~` and
/// `$XDG_VIDEOS_DIR`; the composition root expands them). Messages have the form `KEY.PATH: what is wrong`.
public struct RigDecoder {
    private var diagnostics: [RigDiagnostic] = []

    /// The rig, or every problem found.
    public static func decode(_ root: YAMLNode) throws(RigError) -> Rig {
        var decoder = RigDecoder()
        let rig = decoder.rig(root)
        if let rig, decoder.diagnostics.isEmpty { return rig }
        if decoder.diagnostics.isEmpty {
            preconditionFailure("RigDecoder produced no rig and no diagnostic")
        }
        throw RigError(decoder.diagnostics)
    }

    // MARK: Keys

    static let topKeys = ["name", "output", "audio", "lenses", "default_lens", "standby", "on_attach",
                          "max_digital_zoom", "hold", "zoom_presets", "exposure_presets", "scripts"]
    static let outputKeys = ["directory", "name", "container", "size", "fps", "video", "audio", "exports"]
    static let videoKeys = ["codec", "preset", "crf", "keyframe_interval"]
    static let outputAudioKeys = ["codec", "bitrate"]
    static let audioKeys = ["device", "required"]
    static let lensKeys = ["zoom", "match", "virtual", "file", "loop", "format", "size", "fps", "latency", "controls"]
    static let matchKeys = ["serial", "path", "name", "usb", "bus", "device"]
    static let controlKeys = ["exposure", "focus", "power_line", "exposure_priority"]
    static let zoomPresetKeys = ["lens", "digital", "ramp"]
    static let exposurePresetKeys = ["bias", "mode", "time", "gain"]
    static let scriptKeys = ["on_error", "steps"]
    /// The range `max_digital_zoom` may take: below 1 would forbid the whole frame; beyond 10 a centre crop of a
    /// 1080p picture is under 200 pixels wide, blur rather than zoom.
    static let digitalZoomRange = 1.0...10.0
    static let x264Presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
                              "veryslow", "placebo", "auto"]
    static let namePlaceholders = ["rig", "date", "time", "script"]

    // MARK: The rig

    private mutating func rig(_ root: YAMLNode) -> Rig? {
        if root.isNull {
            report("the rig file is empty; it needs at least \"name\" and \"lenses\"", at: root.mark, path: .root)
            return nil
        }
        guard let top = fields(root, .root, known: Self.topKeys, required: ["name", "lenses"]) else { return nil }
        let name = top["name"].flatMap { text($0, .root.child("name")) }
        let output = top["output"].map { outputSettings($0, .root.child("output")) } ?? Rig.OutputSettings()
        let audio = top["audio"].map { audioInput($0, .root.child("audio")) } ?? Rig.AudioInput()
        let lenses = top["lenses"].map { self.lenses($0, .root.child("lenses")) } ?? []
        // Names as declared, even of entries with errors, so one bad lens does not cascade into "unknown lens".
        let lensNames = Self.declaredNames(top["lenses"])
        var defaultLens = lensNames.first ?? ""
        if let node = top["default_lens"], let d = text(node, .root.child("default_lens")) {
            if lensNames.contains(d) { defaultLens = d } else {
                report("unknown lens \"\(d)\"" + suggestion(d, lensNames, orList: true), at: node.mark,
                       path: .root.child("default_lens"))
            }
        }
        let standby = top["standby"].flatMap { choice($0, .root.child("standby"), Rig.Standby.self) } ?? .hot
        let onAttach = top["on_attach"].flatMap { choice($0, .root.child("on_attach"), Rig.AttachPolicy.self) } ?? .switch
        // An invalid limit is reported once; presets are then held to the widest limit, not blamed for it.
        let maxDigitalZoom = top["max_digital_zoom"].map {
            number(top, "max_digital_zoom", .root, min: Self.digitalZoomRange.lowerBound,
                   max: Self.digitalZoomRange.upperBound, inclusiveMin: true, what: "a digital zoom limit from "
                   + "\(CommandParser.formatNumber(Self.digitalZoomRange.lowerBound)) to "
                   + "\(CommandParser.formatNumber(Self.digitalZoomRange.upperBound))", $0)
        }
        let zoomLimit = maxDigitalZoom.map { $0 ?? Self.digitalZoomRange.upperBound } ?? 4
        // How long the last picture is held with no lens delivering, before the no-signal slate.
        let hold = top["hold"].flatMap { duration($0, .root.child("hold"), max: .seconds(3600), positive: false) }
        let zoomPresets = top["zoom_presets"].map {
            self.zoomPresets($0, .root.child("zoom_presets"), lenses: lensNames, limit: zoomLimit,
                             limitIsDefault: maxDigitalZoom == nil)
        } ?? []
        let exposurePresets = top["exposure_presets"].map { self.exposurePresets($0, .root.child("exposure_presets")) } ?? []
        _ = (zoomPresets, exposurePresets)
        let parser = CommandParser(lenses: lensNames, zoomPresets: Self.declaredNames(top["zoom_presets"]),
                                   exposurePresets: Self.declaredNames(top["exposure_presets"]), scripts: nil)
        let scripts = top["scripts"].map { self.scripts($0, .root.child("scripts"), parser: parser) } ?? []
        guard let name else { return nil }
        return Rig(name: name, output: output, audio: audio, lenses: lenses, defaultLens: defaultLens,
                   standby: standby, onAttach: onAttach, zoomPresets: zoomPresets, exposurePresets: exposurePresets,
                   scripts: scripts, maxDigitalZoom: zoomLimit, hold: hold ?? .seconds(2))
    }

    // MARK: Sections

    private mutating func outputSettings(_ node: YAMLNode, _ path: KeyPath) -> Rig.OutputSettings {
        var settings = Rig.OutputSettings()
        guard let f = fields(node, path, known: Self.outputKeys) else { return settings }
        if let n = f["directory"], let d = text(n, path.child("directory")) { settings.directory = d }
        if let n = f["name"], let pattern = text(n, path.child("name")) {
            if checkNamePattern(pattern, n, path.child("name")) { settings.namePattern = pattern }
        }
        if let n = f["container"], let c = choice(n, path.child("container"), MovieSettings.Container.self) {
            settings.container = c
        }
        if let n = f["size"], let s = value(n, path.child("size"), RigValueParser.size) {
            (settings.width, settings.height) = s
        }
        if let n = f["fps"], let r = value(n, path.child("fps"), RigValueParser.frameRate) { settings.rate = r }
        if let n = f["exports"] { settings.exports = exportFormats(n, path.child("exports")) }
        if let n = f["video"], let v = fields(n, path.child("video"), known: Self.videoKeys) {
            let vp = path.child("video")
            if let c = v["codec"], let codec = text(c, vp.child("codec")), codec != "h264" {
                report("\"\(codec)\" is not supported; the only video codec is h264", at: c.mark, path: vp.child("codec"))
            }
            if let p = v["preset"], let preset = text(p, vp.child("preset")) {
                if Self.x264Presets.contains(preset) { settings.preset = preset } else {
                    report("\"\(preset)\" is not an x264 preset" + suggestion(preset, Self.x264Presets,
                           orList: true), at: p.mark, path: vp.child("preset"))
                }
            }
            if let c = v["crf"], let crf = integer(c, vp.child("crf"), in: 0...51, what: "a CRF from 0 to 51") {
                settings.crf = crf
            }
            if let k = v["keyframe_interval"],
               let d = duration(k, vp.child("keyframe_interval"), max: .seconds(60), positive: true) {
                settings.keyframeInterval = d
            }
        }
        if let n = f["audio"], let a = fields(n, path.child("audio"), known: Self.outputAudioKeys) {
            let ap = path.child("audio")
            if let c = a["codec"], let codec = text(c, ap.child("codec")), codec != "aac" {
                report("\"\(codec)\" is not supported; the only audio codec is aac", at: c.mark, path: ap.child("codec"))
            }
            if let b = a["bitrate"], let bits = value(b, ap.child("bitrate"), RigValueParser.bitrate) {
                settings.audioBitrate = bits
            }
        }
        return settings
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

    private mutating func audioInput(_ node: YAMLNode, _ path: KeyPath) -> Rig.AudioInput {
        var input = Rig.AudioInput()
        guard let f = fields(node, path, known: Self.audioKeys) else { return input }
        if let n = f["device"], let d = text(n, path.child("device")) {
            switch d {
            case "virtual": input.device = .virtual
            case "none": input.device = .none
            default: input.device = .alsa(d)
            }
        }
        if let n = f["required"], let r = bool(n, path.child("required")) { input.required = r }
        return input
    }

    private mutating func lenses(_ node: YAMLNode, _ path: KeyPath) -> [Rig.Lens] {
        guard let entries = namedEntries(node, path, what: "lens names") else { return [] }
        if entries.isEmpty {
            report("a rig needs at least one lens", at: node.mark, path: path)
            return []
        }
        var lenses: [Rig.Lens] = []
        var ruleOwners: [Rig.MatchRule: String] = [:]
        for (name, keyNode, value) in entries {
            let lp = path.child(name)
            if name.lowercased() == "next" {
                report("\"next\" cannot be a lens name (\"lens next\" walks the lenses)", at: keyNode.mark, path: path)
            }
            guard let lens = lens(name, value, lp) else { continue }
            if case .camera(let rule) = lens.source {
                let key = Self.normalized(rule)
                if let owner = ruleOwners[key] {
                    report("the same rule as lens \"\(owner)\" (\(rule)); one camera cannot serve two lenses", at: value.pairs?.first { $0.key.text == "match" }?.value.mark ?? value.mark, path: lp.child("match"))
                } else {
                    ruleOwners[key] = name
                }
            }
            lenses.append(lens)
        }
        return lenses
    }

    /// Rules compared as a camera would be matched: names and USB ids regardless of case.
    private static func normalized(_ rule: Rig.MatchRule) -> Rig.MatchRule {
        switch rule {
        case .name(let n): return .name(n.lowercased())
        case .usb(let u): return .usb(u.lowercased())
        default: return rule
        }
    }

    private mutating func lens(_ name: String, _ node: YAMLNode, _ path: KeyPath) -> Rig.Lens? {
        guard let f = fields(node, path, known: Self.lensKeys, required: ["zoom"]) else { return nil }
        let zoom = f["zoom"].flatMap { number(f, "zoom", path, min: 0, max: 100, what: "a zoom factor more than 0 and at most 100", $0) }
        let source = lensSource(f, node, path)
        var lens = Rig.Lens(name: name, zoom: zoom ?? 1, source: source ?? .virtual(color: RGBColor(red: 0, green: 0, blue: 0)))
        if let n = f["format"], let format = choice(n, path.child("format"), Rig.Lens.CaptureFormat.self) {
            lens.format = format
        }
        if let n = f["size"], let s = value(n, path.child("size"), RigValueParser.size) {
            (lens.width, lens.height) = (s.width, s.height)
        }
        if let n = f["fps"], let r = value(n, path.child("fps"), RigValueParser.frameRate) { lens.rate = r }
        // A camera's delay from light to timestamp; a second is far beyond any real pipeline.
        if let n = f["latency"], let l = duration(n, path.child("latency"), max: .seconds(1), positive: false) {
            lens.latency = l
        }
        if let n = f["controls"] { lens.controls = controls(n, path.child("controls")) }
        if case .file = source { reportCameraOnlyKeys(f, path) }
        guard zoom != nil, source != nil else { return nil }
        return lens
    }

    mutating func matchRule(_ node: YAMLNode, _ path: KeyPath) -> Rig.MatchRule? {
        guard let f = fields(node, path, known: Self.matchKeys) else { return nil }
        guard let first = f.pairs.first else {
            // An unknown key alone was reported already; "needs one rule" would only repeat it.
            if node.pairs?.isEmpty == false { return nil }
            report("needs one rule: " + Self.matchKeys.joined(separator: ", "), at: node.mark, path: path)
            return nil
        }
        if f.pairs.count > 1 {
            report("give one rule, not \(f.pairs.count) (" + f.pairs.map(\.key).joined(separator: ", ") + ")",
                   at: f.pairs[1].keyNode.mark, path: path)
            return nil
        }
        let rp = path.child(first.key)
        guard let v = text(first.value, rp) else { return nil }
        switch first.key {
        case "serial": return .serial(v)
        case "path": return .path(v)
        case "name": return .name(v)
        case "bus": return .bus(v)
        case "usb":
            let parts = v.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isHexDigit) }) else {
                report("\"\(v)\" is not a USB id; write VENDOR:PRODUCT in hex, such as \"046d:085b\"",
                       at: first.value.mark, path: rp)
                return nil
            }
            return .usb(v.lowercased())
        default:
            guard v.hasPrefix("/dev/"), v.count > 5 else {
                report("\"\(v)\" is not a device node; write a path such as /dev/video2", at: first.value.mark, path: rp)
                return nil
            }
            return .device(v)
        }
    }

    private mutating func controls(_ node: YAMLNode, _ path: KeyPath) -> Rig.Controls {
        var controls = Rig.Controls()
        guard let f = fields(node, path, known: Self.controlKeys) else { return controls }
        if let n = f["exposure"] { controls.exposure = mode(n, path.child("exposure"), min: 1) }
        if let n = f["focus"] { controls.focus = mode(n, path.child("focus"), min: 0) }
        if let n = f["power_line"], let p = choice(n, path.child("power_line"), Rig.Controls.PowerLine.self) {
            controls.powerLine = p
        }
        if let n = f["exposure_priority"] { controls.exposurePriority = bool(n, path.child("exposure_priority")) }
        return controls
    }

    private mutating func mode(_ node: YAMLNode, _ path: KeyPath, min: Int) -> Rig.Controls.Mode? {
        guard let t = text(node, path) else { return nil }
        if t == "auto" { return .auto }
        guard let v = RigValueParser.integer(t), v >= min else {
            report("\"\(t)\" is neither \"auto\" nor a whole number (\(min) or more)", at: node.mark, path: path)
            return nil
        }
        return .manual(v)
    }

    /// `limit` is the rig's `max_digital_zoom` (`limitIsDefault` when the rig does not set it, so the message says
    /// how to raise it).
    private mutating func zoomPresets(_ node: YAMLNode, _ path: KeyPath, lenses: [String], limit: Double,
                                      limitIsDefault: Bool) -> [Rig.ZoomPreset] {
        guard let entries = namedEntries(node, path, what: "preset names") else { return [] }
        let knownLenses = Set(lenses)
        var presets: [Rig.ZoomPreset] = []
        for (name, _, value) in entries {
            let pp = path.child(name)
            guard let f = fields(value, pp, known: Self.zoomPresetKeys, required: ["lens"]) else { continue }
            guard let l = f["lens"], let lens = text(l, pp.child("lens")) else { continue }
            var preset = Rig.ZoomPreset(name: name, lens: lens)
            var ok = true
            if !knownLenses.contains(lens) {
                report("unknown lens \"\(lens)\"" + suggestion(lens, lenses, orList: true), at: l.mark, path: pp.child("lens"))
                ok = false
            }
            if let d = f["digital"] {
                if let v = number(f, "digital", pp, min: 1, max: 10, inclusiveMin: true,
                                  what: "a digital zoom from 1 to 10", d) {
                    if v > limit {
                        let limitText = CommandParser.formatNumber(limit)
                        report("digital zoom \(CommandParser.formatNumber(v)) is more than the rig's max_digital_zoom "
                               + "(\(limitText)\(limitIsDefault ? ", the default" : "")); lower it, or raise "
                               + "max_digital_zoom (at most 10)", at: d.mark, path: pp.child("digital"))
                        ok = false
                    } else {
                        preset.digital = v
                    }
                } else { ok = false }
            }
            if let r = f["ramp"] {
                if let v = duration(r, pp.child("ramp"), max: .seconds(60), positive: false) { preset.ramp = v } else { ok = false }
            }
            if ok { presets.append(preset) }
        }
        return presets
    }

    private mutating func exposurePresets(_ node: YAMLNode, _ path: KeyPath) -> [Rig.ExposurePreset] {
        guard let entries = namedEntries(node, path, what: "preset names") else { return [] }
        var presets: [Rig.ExposurePreset] = []
        for (name, _, value) in entries {
            let pp = path.child(name)
            guard let f = fields(value, pp, known: Self.exposurePresetKeys) else { continue }
            var manual = f["time"] != nil
            if let m = f["mode"], let mode = text(m, pp.child("mode")) {
                switch mode {
                case "manual": manual = true
                case "auto":
                    manual = false
                    for key in ["time", "gain"] where f[key] != nil {
                        report("\"\(key)\" needs mode: manual", at: f.keyNode(key)!.mark, path: pp)
                    }
                default:
                    report("\"\(mode)\" is not a mode; write auto or manual", at: m.mark, path: pp.child("mode"))
                    continue
                }
            }
            if manual {
                if let b = f.keyNode("bias") {
                    report("\"bias\" applies to automatic exposure, not mode: manual", at: b.mark, path: pp)
                    continue
                }
                guard let t = f["time"] else {
                    report("manual exposure needs \"time\" (such as 1/30)", at: value.mark, path: pp)
                    continue
                }
                guard let time = duration(t, pp.child("time"), max: .seconds(10), positive: true) else { continue }
                var gain: Int?
                if let g = f["gain"] {
                    guard let v = integer(g, pp.child("gain"), in: 0...10_000, what: "a gain of 0 or more") else { continue }
                    gain = v
                }
                presets.append(Rig.ExposurePreset(name: name, setting: .manual(time: time, gain: gain)))
            } else if let b = f["bias"] {
                guard let v = number(f, "bias", pp, min: -10, max: 10, inclusiveMin: true,
                                     what: "an EV bias from -10 to +10", b) else { continue }
                presets.append(Rig.ExposurePreset(name: name, setting: .bias(v)))
            } else {
                presets.append(Rig.ExposurePreset(name: name, setting: .auto))
            }
        }
        return presets
    }

    // MARK: Building blocks (shared with RigDecoder+Scripts.swift)

    /// The text keys of a mapping of user-chosen names, in order, first occurrence only.
    private static func declaredNames(_ node: YAMLNode?) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        for pair in node?.pairs ?? [] {
            if let t = pair.key.text, !pair.key.isNull, seen.insert(t).inserted { names.append(t) }
        }
        return names
    }

    /// A node's keys and values; built by `fields`, which has already reported duplicates and unknown keys.
    struct Fields {
        var pairs: [(key: String, keyNode: YAMLNode, value: YAMLNode)]
        subscript(key: String) -> YAMLNode? { pairs.first { $0.key == key }?.value }
        func keyNode(_ key: String) -> YAMLNode? { pairs.first { $0.key == key }?.keyNode }
    }

    /// The mapping's known keys (first occurrence of each); reports a non-mapping, unknown and duplicate keys, and
    /// missing required keys. `nil` when the node is not a mapping.
    mutating func fields(_ node: YAMLNode, _ path: KeyPath, known: [String], required: [String] = []) -> Fields? {
        guard let pairs = node.pairs else {
            report("expected a mapping (\(known.prefix(3).map { "\($0):" }.joined(separator: " ")) …), found "
                   + node.kindDescription, at: node.mark, path: path)
            return nil
        }
        var result = Fields(pairs: [])
        for (key, keyNode, value) in keys(pairs, path) {
            guard known.contains(key) else {
                let hint = SpellingSuggestion.closest(to: key, in: known).map { "; did you mean \"\($0)\"?" }
                    ?? " (expected one of: \(known.joined(separator: ", ")))"
                report("unknown key \"\(key)\"" + hint, at: keyNode.mark, path: path)
                continue
            }
            result.pairs.append((key, keyNode, value))
        }
        for key in required where result[key] == nil {
            report("missing required key \"\(key)\"", at: node.mark, path: path)
        }
        return result
    }

    /// A mapping of user-chosen names (lenses, presets, scripts), duplicates reported.
    mutating func namedEntries(_ node: YAMLNode, _ path: KeyPath, what: String)
        -> [(String, YAMLNode, YAMLNode)]? {
        guard let pairs = node.pairs else {
            report("expected a mapping of \(what), found \(node.kindDescription)", at: node.mark, path: path)
            return nil
        }
        return keys(pairs, path)
    }

    /// Keys as text, in order, with duplicates and non-text keys reported and dropped.
    private mutating func keys(_ pairs: [YAMLNode.Pair], _ path: KeyPath) -> [(String, YAMLNode, YAMLNode)] {
        var seen: [String: SourceMark] = [:]
        var result: [(String, YAMLNode, YAMLNode)] = []
        for pair in pairs {
            guard let key = pair.key.text, !pair.key.isNull else {
                report("a key must be a name, not \(pair.key.kindDescription)", at: pair.key.mark, path: path)
                continue
            }
            if let first = seen[key] {
                report("duplicate key \"\(key)\" (first at line \(first.line), column \(first.column))",
                       at: pair.key.mark, path: path)
                continue
            }
            seen[key] = pair.key.mark
            result.append((key, pair.key, pair.value))
        }
        return result
    }

    /// A non-empty single value.
    mutating func text(_ node: YAMLNode, _ path: KeyPath) -> String? {
        guard let t = node.text, !node.isNull, !t.isEmpty else {
            report("expected a value, found \(node.kindDescription)", at: node.mark, path: path)
            return nil
        }
        return t
    }

    mutating func value<T>(_ node: YAMLNode, _ path: KeyPath,
                                   _ parse: (String) -> Result<T, RigValueParser.Problem>) -> T? {
        guard let t = text(node, path) else { return nil }
        switch parse(t) {
        case .success(let v): return v
        case .failure(let problem):
            report(problem.message, at: node.mark, path: path)
            return nil
        }
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ path: KeyPath,
                                                                     _ type: T.Type) -> T? where T.RawValue == String {
        guard let t = text(node, path) else { return nil }
        if let v = T(rawValue: t) { return v }
        let all = T.allCases.map(\.rawValue)
        report("\"\(t)\" is not one of \(all.joined(separator: ", "))" + suggestion(t, all), at: node.mark, path: path)
        return nil
    }

    mutating func bool(_ node: YAMLNode, _ path: KeyPath) -> Bool? {
        guard let t = text(node, path) else { return nil }
        switch t {
        case "true": return true
        case "false": return false
        default:
            report("expected true or false, found \"\(t)\"", at: node.mark, path: path)
            return nil
        }
    }

    private mutating func integer(_ node: YAMLNode, _ path: KeyPath, in range: ClosedRange<Int>, what: String) -> Int? {
        guard let t = text(node, path) else { return nil }
        guard let v = RigValueParser.integer(t), range.contains(v) else {
            report("expected \(what), found \"\(t)\"", at: node.mark, path: path)
            return nil
        }
        return v
    }

    /// A decimal in `min...max` (`min` itself excluded unless `inclusiveMin`).
    private mutating func number(_ f: Fields, _ key: String, _ path: KeyPath, min: Double, max: Double,
                                 inclusiveMin: Bool = false, what: String, _ node: YAMLNode) -> Double? {
        let np = path.child(key)
        guard let t = text(node, np) else { return nil }
        guard let v = RigValueParser.number(t), inclusiveMin ? v >= min : v > min, v <= max else {
            report("expected \(what), found \"\(t)\"", at: node.mark, path: np)
            return nil
        }
        return v
    }

    private mutating func duration(_ node: YAMLNode, _ path: KeyPath, max: MediaTime, positive: Bool) -> MediaTime? {
        guard let t = text(node, path) else { return nil }
        guard let d = DurationParser.parse(t) else {
            report("\"\(t)\" is not a duration (try 2s, 400ms, 1/30)", at: node.mark, path: path)
            return nil
        }
        guard d <= max, !positive || d > .zero else {
            report("duration \(t) is out of range (\(positive ? "more than 0" : "0 or more"), at most "
                   + "\(CommandParser.formatDuration(max)))", at: node.mark, path: path)
            return nil
        }
        return d
    }

    private func suggestion(_ word: String, _ known: [String], orList: Bool = false) -> String {
        if let near = SpellingSuggestion.closest(to: word, in: known) { return "; did you mean \"\(near)\"?" }
        if orList, !known.isEmpty { return " (expected one of: \(known.joined(separator: ", ")))" }
        return ""
    }

    mutating func report(_ message: String, at mark: SourceMark, path: KeyPath) {
        diagnostics.append(RigDiagnostic(path.isRoot ? message : "\(path): \(message)", at: mark))
    }

    /// Where in the rig a value sits, printed `lenses.wide.zoom`, `zoom_presets."0.5x".lens`,
    /// `scripts.demo step 3`.
    struct KeyPath: CustomStringConvertible {
        var text: String
        static let root = KeyPath(text: "")
        var isRoot: Bool { text.isEmpty }
        func child(_ key: String) -> KeyPath {
            let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            let part = plain ? key : "\"\(key)\""
            return KeyPath(text: isRoot ? part : "\(text).\(part)")
        }
        func step(_ number: Int) -> KeyPath { KeyPath(text: "\(text) step \(number)") }
        var description: String { text }
    }
}
