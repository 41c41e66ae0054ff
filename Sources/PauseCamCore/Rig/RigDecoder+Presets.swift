/// `zoom_presets:` and `exposure_presets:`: named settings that `zoom PRESET` and `exposure PRESET` apply.
extension RigDecoder {
    /// The keys of one zoom preset.
    enum ZoomPresetKey: String, RigKey {
        case lens, digital, ramp, optical, ptz
    }

    /// The keys of a zoom preset's `ptz:`.
    enum PTZKey: String, RigKey {
        case pan, tilt
    }

    /// A PTZ control value: a whole number with an optional sign (pan and tilt go negative), at most 9 digits, so
    /// any such value fits the 32-bit control; the camera's own range is checked when the preset is applied.
    private mutating func ptzValue(_ node: YAMLNode, _ path: KeyPath, what: String) -> Int? {
        guard let t = text(node, path) else { return nil }
        let negative = t.hasPrefix("-")
        let digits = negative || t.hasPrefix("+") ? t.dropFirst() : Substring(t)
        guard let magnitude = RigValueParser.integer(digits) else {
            report("expected \(what), found \"\(t)\"", at: node.mark, path: path)
            return nil
        }
        return negative ? -magnitude : magnitude
    }

    /// The keys of one exposure preset.
    enum ExposurePresetKey: String, RigKey {
        case bias, mode, time, gain
    }

    /// `limit` is the rig's `max_digital_zoom` (`limitIsDefault` when the rig does not set it, so the message says
    /// how to raise it).
    mutating func zoomPresets(_ node: YAMLNode, _ path: KeyPath, lenses: [String], limit: Double,
                              limitIsDefault: Bool) -> [Rig.ZoomPreset] {
        guard let entries = namedEntries(node, path, what: "preset names") else { return [] }
        let knownLenses = Set(lenses)
        var presets: [Rig.ZoomPreset] = []
        for (name, _, value) in entries {
            let pp = path.child(name)
            guard let f = fields(value, pp, ZoomPresetKey.self, required: [.lens]) else { continue }
            guard let l = f[.lens], let lens = text(l, pp.child(ZoomPresetKey.lens)) else { continue }
            var preset = Rig.ZoomPreset(name: name, lens: lens)
            var ok = true
            if !knownLenses.contains(lens) {
                report("unknown lens \"\(lens)\"" + suggestion(lens, lenses, orList: true), at: l.mark,
                       path: pp.child(ZoomPresetKey.lens))
                ok = false
            }
            if let d = f[.digital] {
                if let v = number(d, pp.child(ZoomPresetKey.digital), min: 1, max: 10, inclusiveMin: true,
                                  what: "a digital zoom from 1 to 10") {
                    if v > limit {
                        let limitText = CommandParser.formatNumber(limit)
                        report("digital zoom \(CommandParser.formatNumber(v)) is more than the rig's max_digital_zoom "
                               + "(\(limitText)\(limitIsDefault ? ", the default" : "")); lower it, or raise "
                               + "max_digital_zoom (at most 10)", at: d.mark, path: pp.child(ZoomPresetKey.digital))
                        ok = false
                    } else {
                        preset.digital = v
                    }
                } else { ok = false }
            }
            if let r = f[.ramp] {
                if let v = duration(r, pp.child(ZoomPresetKey.ramp), max: .seconds(60), positive: false) {
                    preset.ramp = v
                } else { ok = false }
            }
            if let o = f[.optical] {
                if let v = ptzValue(o, pp.child(ZoomPresetKey.optical),
                                    what: "a whole number of the camera's zoom units (zoom_absolute), such as 200") {
                    preset.ptz.zoom = v
                } else { ok = false }
            }
            if let p = f[.ptz] {
                let ptzPath = pp.child(ZoomPresetKey.ptz)
                if let g = fields(p, ptzPath, PTZKey.self) {
                    for (key, _, value) in g.pairs {
                        let what = "a whole number of arc seconds (\(key.rawValue)_absolute), such as -3600"
                        guard let v = ptzValue(value, ptzPath.child(key), what: what) else {
                            ok = false
                            continue
                        }
                        if key == .pan { preset.ptz.pan = v } else { preset.ptz.tilt = v }
                    }
                } else { ok = false }
            }
            if ok { presets.append(preset) }
        }
        return presets
    }

    mutating func exposurePresets(_ node: YAMLNode, _ path: KeyPath) -> [Rig.ExposurePreset] {
        guard let entries = namedEntries(node, path, what: "preset names") else { return [] }
        var presets: [Rig.ExposurePreset] = []
        for (name, _, value) in entries {
            let pp = path.child(name)
            guard let f = fields(value, pp, ExposurePresetKey.self) else { continue }
            // `time` and `gain` are manual settings: either one without a mode means manual exposure (a lone gain
            // was once taken for automatic exposure and silently dropped).
            var manual = f[.time] != nil || f[.gain] != nil
            if let m = f[.mode], let mode = text(m, pp.child(ExposurePresetKey.mode)) {
                switch mode {
                case "manual": manual = true
                case "auto":
                    manual = false
                    for key in [ExposurePresetKey.time, .gain] {
                        guard let keyNode = f.keyNode(key) else { continue }
                        report("\"\(key.rawValue)\" needs mode: manual", at: keyNode.mark, path: pp)
                    }
                default:
                    report("\"\(mode)\" is not a mode; write auto or manual", at: m.mark,
                           path: pp.child(ExposurePresetKey.mode))
                    continue
                }
            }
            if manual {
                if let b = f.keyNode(.bias) {
                    report("\"bias\" applies to automatic exposure, not mode: manual", at: b.mark, path: pp)
                    continue
                }
                guard let t = f[.time] else {
                    report("manual exposure needs \"time\" (such as 1/30)", at: value.mark, path: pp)
                    continue
                }
                guard let time = duration(t, pp.child(ExposurePresetKey.time), max: .seconds(10), positive: true)
                else { continue }
                var gain: Int?
                if let g = f[.gain] {
                    guard let v = integer(g, pp.child(ExposurePresetKey.gain), in: 0...10_000,
                                          what: "a gain of 0 or more") else { continue }
                    gain = v
                }
                presets.append(Rig.ExposurePreset(name: name, setting: .manual(time: time, gain: gain)))
            } else if let b = f[.bias] {
                guard let v = number(b, pp.child(ExposurePresetKey.bias), min: -10, max: 10, inclusiveMin: true,
                                     what: "an EV bias from -10 to +10") else { continue }
                presets.append(Rig.ExposurePreset(name: name, setting: .bias(v)))
            } else {
                presets.append(Rig.ExposurePreset(name: name, setting: .auto))
            }
        }
        return presets
    }
}
