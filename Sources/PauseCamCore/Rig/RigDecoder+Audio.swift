/// `audio:`: which microphone the rig records, and whether a rig without it may record at all.
extension RigDecoder {
    /// The keys of `audio:`.
    enum AudioKey: String, RigKey {
        case device, required
        case declick, tone
        case driftPPM = "drift_ppm"
        case level, match, lens, gain
    }

    mutating func audioInput(_ node: YAMLNode, _ path: KeyPath) -> Rig.AudioInput {
        var input = Rig.AudioInput()
        guard let f = fields(node, path, AudioKey.self) else { return input }
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
