/// Decodes the `audio:` section's sound options (`declick`, `gain`, and the virtual microphone's `tone`, `drift_ppm`,
/// `level`), kept apart from the device keys so each can grow on its own.
extension RigDecoder {
    /// `match:` (a lens-style rule) or `lens:` (that lens's camera's microphone) instead of `device:`; `nil` when
    /// neither is given. Both, or either with `device`, is an error: a rig has one microphone.
    mutating func audioDevice(_ f: Fields<AudioKey>, _ path: KeyPath) -> Rig.AudioInput.Device? {
        let given = [AudioKey.device, .match, .lens].filter { f[$0] != nil }
        if given.count > 1, let second = f.keyNode(given[1]) {
            report("has both \"\(given[0].rawValue)\" and \"\(given[1].rawValue)\"; give one way to find the microphone",
                   at: second.mark, path: path)
            return nil
        }
        if let n = f[.match] { return matchRule(n, path.child(AudioKey.match)).map { .matched($0) } }
        if let n = f[.lens], let lens = text(n, path.child(AudioKey.lens)) { return .ofLens(lens) }
        return nil
    }

    /// The options in the `audio:` section's fields `f`; `virtual` says whether the device is the virtual
    /// microphone (the test-signal keys mean nothing to a real one, so they are errors there).
    mutating func audioOptions(_ f: Fields<AudioKey>, _ path: KeyPath, virtual: Bool) -> Rig.AudioOptions {
        var options = Rig.AudioOptions()
        if let n = f[.declick], let on = onOff(n, path.child(AudioKey.declick)) { options.declick = on }
        for key in [AudioKey.tone, .driftPPM, .level] where !virtual {
            if let keyNode = f.keyNode(key) {
                report("\"\(key.rawValue)\" applies to the virtual microphone only (device: virtual)", at: keyNode.mark,
                       path: path)
            }
        }
        if let n = f[.tone], let v = toneFrequency(n, path.child(AudioKey.tone)) { options.toneFrequency = v }
        if let n = f[.driftPPM], let v = driftPPM(n, path.child(AudioKey.driftPPM)) { options.driftPPM = v }
        if let n = f[.level], let v = signalLevel(n, path.child(AudioKey.level)) { options.level = v }
        if let n = f[.gain], let v = gain(n, path.child(AudioKey.gain)) { options.gainDecibels = v }
        return options
    }

    /// `on` or `off` (`true`, `false` too), as `declick:` and `follow.start:` are written.
    mutating func onOff(_ n: YAMLNode, _ path: KeyPath) -> Bool? {
        guard let t = text(n, path) else { return nil }
        switch t {
        case "on", "true": return true
        case "off", "false": return false
        default:
            report("expected on or off, found \"\(t)\"", at: n.mark, path: path)
            return nil
        }
    }

    /// `tone: 440` or `tone: 440 Hz`, in `Rig.AudioOptions.toneRange`.
    mutating func toneFrequency(_ n: YAMLNode, _ path: KeyPath) -> Int? {
        guard let t = text(n, path) else { return nil }
        let hertz = t.hasSuffix("Hz") ? String(t.dropLast(2)).filter { $0 != " " } : t
        if let v = RigValueParser.integer(hertz), Rig.AudioOptions.toneRange.contains(v) { return v }
        report("expected a frequency in Hz from \(Rig.AudioOptions.toneRange.lowerBound) to "
               + "\(Rig.AudioOptions.toneRange.upperBound), found \"\(t)\"", at: n.mark, path: path)
        return nil
    }

    /// `drift_ppm: -1000` or `+250`: whole parts per million in `Rig.AudioOptions.driftRange`.
    mutating func driftPPM(_ n: YAMLNode, _ path: KeyPath) -> Int? {
        guard let t = text(n, path) else { return nil }
        let negative = t.hasPrefix("-")
        let digits = negative || t.hasPrefix("+") ? t.dropFirst() : Substring(t)
        if let magnitude = RigValueParser.integer(digits),
           Rig.AudioOptions.driftRange.contains(negative ? -magnitude : magnitude) {
            return negative ? -magnitude : magnitude
        }
        report("expected whole parts per million from \(Rig.AudioOptions.driftRange.lowerBound) to "
               + "\(Rig.AudioOptions.driftRange.upperBound), found \"\(t)\"", at: n.mark, path: path)
        return nil
    }

    /// `level: 0.5`: a virtual microphone's gain on what it plays, from 0 (silent) to 1.
    mutating func signalLevel(_ n: YAMLNode, _ path: KeyPath) -> Double? {
        guard let t = text(n, path) else { return nil }
        if let v = RigValueParser.number(t), (0.0...1.0).contains(v) { return v }
        report("expected a gain from 0 (silent) to 1, found \"\(t)\"", at: n.mark, path: path)
        return nil
    }

    /// `gain: +6dB`: decibels in `Rig.AudioOptions.gainRange`.
    mutating func gain(_ n: YAMLNode, _ path: KeyPath) -> Double? {
        guard let t = text(n, path) else { return nil }
        if let v = Self.decibels(t), Rig.AudioOptions.gainRange.contains(v) { return v }
        report("expected a gain from -40dB to +40dB such as +6dB, found \"\(t)\"", at: n.mark, path: path)
        return nil
    }

    /// `+6dB`, `-3.5 dB`, `6`: a signed number of decibels, the unit optional; `nil` otherwise.
    static func decibels(_ text: String) -> Double? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.lowercased().hasSuffix("db") { body = body.dropLast(2) }
        body = Substring(body.trimmingCharacters(in: .whitespaces))
        let negative = body.hasPrefix("-")
        if body.hasPrefix("+") || negative { body = body.dropFirst() }
        guard let magnitude = RigValueParser.number(String(body)), magnitude >= 0 else { return nil }
        return negative ? -magnitude : magnitude
    }
}
