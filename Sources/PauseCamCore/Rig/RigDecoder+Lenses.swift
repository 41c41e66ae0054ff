/// `lenses:`: each lens's zoom, what serves it (see `+LensSource`), how its camera captures, and its controls.
extension RigDecoder {
    /// The keys of one lens.
    enum LensKey: String, RigKey {
        case zoom, match, virtual, file, loop, format, size, fps, latency, controls, rotate, mirror
        case usbPort = "usb_port"
        case watchdog
        case opticalMax = "optical_max"
    }

    /// The keys of a lens's `match:` (exactly one is given).
    enum MatchKey: String, RigKey {
        case serial, path, name, usb, bus, device
    }

    /// The keys of a lens's `controls:`.
    enum ControlKey: String, RigKey {
        case exposure, focus
        case powerLine = "power_line"
        case exposurePriority = "exposure_priority"
    }

    mutating func lenses(_ node: YAMLNode, _ path: KeyPath) -> [Rig.Lens] {
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
                    let matchNode = value.pairs?.first { $0.key.text == LensKey.match.rawValue }?.value
                    report("the same rule as lens \"\(owner)\" (\(rule)); one camera cannot serve two lenses",
                           at: matchNode?.mark ?? value.mark, path: lp.child(LensKey.match))
                } else {
                    ruleOwners[key] = name
                }
            }
            lenses.append(lens)
        }
        return lenses
    }

    /// Rules compared as a camera would be matched: names and USB ids regardless of case.
    static func normalized(_ rule: Rig.MatchRule) -> Rig.MatchRule {
        switch rule {
        case .name(let n): return .name(n.lowercased())
        case .usb(let u): return .usb(u.lowercased())
        default: return rule
        }
    }

    private mutating func lens(_ name: String, _ node: YAMLNode, _ path: KeyPath) -> Rig.Lens? {
        guard let f = fields(node, path, LensKey.self, required: [.zoom]) else { return nil }
        let zoom = f[.zoom].flatMap {
            number($0, path.child(LensKey.zoom), min: 0, max: 100, what: "a zoom factor more than 0 and at most 100")
        }
        let source = lensSource(f, node, path)
        var lens = Rig.Lens(name: name, zoom: zoom ?? 1,
                            source: source ?? .virtual(color: RGBColor(red: 0, green: 0, blue: 0)))
        if let n = f[.format], let format = choice(n, path.child(LensKey.format), Rig.Lens.CaptureFormat.self) {
            lens.format = format
        }
        if let n = f[.size], let s = value(n, path.child(LensKey.size), RigValueParser.size) {
            (lens.width, lens.height) = (s.width, s.height)
        }
        if let n = f[.fps], let r = value(n, path.child(LensKey.fps), RigValueParser.frameRate) { lens.rate = r }
        // A camera's delay from light to timestamp; a second is far beyond any real pipeline.
        if let n = f[.latency], let l = duration(n, path.child(LensKey.latency), max: .seconds(1), positive: false) {
            lens.latency = l
        }
        if let n = f[.controls] { lens.controls = controls(n, path.child(LensKey.controls)) }
        if let n = f[.rotate], let r = rotation(n, path.child(LensKey.rotate)) { lens.orientation.rotation = r }
        if let n = f[.mirror], let m = bool(n, path.child(LensKey.mirror)) { lens.orientation.mirrored = m }
        if let n = f[.usbPort] { lens.usbPort = usbPort(n, path.child(LensKey.usbPort)) }
        if let n = f[.watchdog] { lens.watchdog = watchdog(n, path.child(LensKey.watchdog)) }
        if let n = f[.opticalMax] {
            lens.opticalMax = number(n, path.child(LensKey.opticalMax), min: 1, max: 100,
                                     what: "the optical zoom factor at the camera's longest zoom, more than 1 and at most 100")
        }
        if case .file = source { reportCameraOnlyKeys(f, path) }
        guard zoom != nil, source != nil else { return nil }
        return lens
    }

    mutating func matchRule(_ node: YAMLNode, _ path: KeyPath) -> Rig.MatchRule? {
        guard let f = fields(node, path, MatchKey.self) else { return nil }
        guard let first = f.pairs.first else {
            // An unknown key alone was reported already; "needs one rule" would only repeat it.
            if node.pairs?.isEmpty == false { return nil }
            report("needs one rule: " + MatchKey.names.joined(separator: ", "), at: node.mark, path: path)
            return nil
        }
        if f.pairs.count > 1 {
            report("give one rule, not \(f.pairs.count) (" + f.pairs.map(\.key.rawValue).joined(separator: ", ")
                   + ")", at: f.pairs[1].keyNode.mark, path: path)
            return nil
        }
        let rp = path.child(first.key)
        guard let v = text(first.value, rp) else { return nil }
        switch first.key {
        case .serial: return .serial(v)
        case .path: return .path(v)
        case .name: return .name(v)
        case .bus: return .bus(v)
        case .usb:
            let parts = v.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isHexDigit) }) else {
                report("\"\(v)\" is not a USB id; write VENDOR:PRODUCT in hex, such as \"046d:085b\"",
                       at: first.value.mark, path: rp)
                return nil
            }
            return .usb(v.lowercased())
        case .device:
            guard v.hasPrefix("/dev/"), v.count > 5 else {
                report("\"\(v)\" is not a device node; write a path such as /dev/video2", at: first.value.mark,
                       path: rp)
                return nil
            }
            return .device(v)
        }
    }

    private mutating func controls(_ node: YAMLNode, _ path: KeyPath) -> Rig.Controls {
        var controls = Rig.Controls()
        guard let f = fields(node, path, ControlKey.self) else { return controls }
        if let n = f[.exposure] { controls.exposure = mode(n, path.child(ControlKey.exposure), min: 1) }
        if let n = f[.focus] { controls.focus = mode(n, path.child(ControlKey.focus), min: 0) }
        if let n = f[.powerLine], let p = choice(n, path.child(ControlKey.powerLine), Rig.Controls.PowerLine.self) {
            controls.powerLine = p
        }
        if let n = f[.exposurePriority] {
            controls.exposurePriority = bool(n, path.child(ControlKey.exposurePriority))
        }
        return controls
    }

    /// `rotate:`: a clockwise turn of 0, 90, 180 or 270 degrees, written as a whole number.
    private mutating func rotation(_ node: YAMLNode, _ path: KeyPath) -> PictureOrientation.Rotation? {
        guard let t = text(node, path) else { return nil }
        if let degrees = RigValueParser.integer(t), let r = PictureOrientation.Rotation(rawValue: degrees) { return r }
        let allowed = PictureOrientation.Rotation.allCases.map { String($0.rawValue) }.joined(separator: ", ")
        report("\"\(t)\" is not a rotation; write one of \(allowed) (degrees clockwise)", at: node.mark, path: path)
        return nil
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
}
