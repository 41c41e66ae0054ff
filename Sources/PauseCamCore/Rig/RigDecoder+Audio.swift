/// `audio:`: which microphone the rig records, and whether a rig without it may record at all. Either one
/// microphone (a mapping with `device:`, `match:` or `lens:`) or several voices (`+Voices`): a list of them, or a
/// mapping with `voices:` beside `declick:` and `required:`.
extension RigDecoder {
    /// The keys of `audio:`.
    enum AudioKey: String, RigKey {
        case device, required
        case declick, tone
        case driftPPM = "drift_ppm"
        case level, match, lens, gain
        case voices
    }

    /// `lenses` are the rig's lens roles as declared, which a voice's `lens:` must name.
    mutating func audioInput(_ node: YAMLNode, _ path: KeyPath, lenses: [String]) -> Rig.AudioInput {
        var input = Rig.AudioInput()
        if node.items != nil {
            input.device = .none
            input.voices = voices(node, path, lenses: lenses)
            return input
        }
        if node.pairs == nil {
            report("expected a mapping (device: required: declick: …) or a list of voices ({name: host, …}), found "
                   + node.kindDescription, at: node.mark, path: path)
            return input
        }
        guard let f = fields(node, path, AudioKey.self) else { return input }
        if let list = f[.voices] {
            // Each voice names its own source and sound; only what applies to them all stays beside the list.
            for key in AudioKey.allCases where ![.voices, .required, .declick].contains(key) {
                if let keyNode = f.keyNode(key) {
                    report("\"\(key.rawValue)\" does not go beside \"voices\": give each voice its own",
                           at: keyNode.mark, path: path)
                }
            }
            input.device = .none
            input.voices = voices(list, path.child(AudioKey.voices), lenses: lenses)
            if let n = f[.required], let r = bool(n, path.child(AudioKey.required)) { input.required = r }
            if let n = f[.declick], let on = onOff(n, path.child(AudioKey.declick)) { input.options.declick = on }
            return input
        }
        if let n = f[.device], let d = text(n, path.child(AudioKey.device)) {
            switch d {
            case "virtual": input.device = .virtual
            case "none": input.device = .none
            default: input.device = .alsa(d)
            }
        }
        if let n = f[.required], let r = bool(n, path.child(AudioKey.required)) { input.required = r }
        if let device = audioDevice(f, path) { input.device = device }
        input.options = audioOptions(f, path, virtual: input.device == .virtual)
        return input
    }
}
