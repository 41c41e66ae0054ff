/// Follows which lens a script's steps make active, so an `exposure` or `focus` step that will meet a lens without
/// such a control (a virtual lens or a movie file: only cameras have controls) is found when the rig is checked.
/// At run time such a step changes nothing and is noted in the clip's sidecar; here it becomes a `RigWarning`.
///
/// Where the active lens cannot be known without the cameras (`lens next` walks only the lenses that deliver), the
/// checker stays silent until a step names a lens again: a warning is given only where it is certain.
struct ScriptControlChecker {
    private let lenses: [Rig.Lens]
    private let zoomPresets: [Rig.ZoomPreset]
    private let maxDigitalZoom: Double
    /// The active lens, or `nil` when it depends on the cameras present.
    private var active: String?

    /// `lenses` is the rig's whole set (empty when one failed to decode: then nothing is checked).
    init(lenses: [Rig.Lens], defaultLens: String, zoomPresets: [Rig.ZoomPreset], maxDigitalZoom: Double) {
        self.lenses = lenses
        self.zoomPresets = zoomPresets
        self.maxDigitalZoom = maxDigitalZoom
        self.active = lenses.isEmpty ? nil : defaultLens
    }

    /// Applies one step; returns why it will change nothing, or `nil`.
    mutating func apply(_ command: Command) -> String? {
        switch command {
        case .lens(.named(let name)):
            active = name
        case .lens(.next):
            active = nil
        case .zoom(.preset(let name)):
            if let preset = zoomPresets.first(where: { $0.name == name }) {
                active = preset.lens
            } else if let factor = ZoomFactor.parse(name) {
                zoom(to: factor)
            }
        case .zoom(.factor(let factor)):
            zoom(to: factor)
        case .exposure, .focus:
            guard let name = active, let lens = lenses.first(where: { $0.name == name }),
                  let kind = Self.uncontrolledKind(lens.source) else { return nil }
            return "\"\(CommandParser.line(for: command))\" runs on lens \"\(name)\", \(kind), which has no "
                + "\(command.word) control: the step changes nothing (a run notes it in the clip's sidecar); "
                + "switch to a camera lens first, or remove the step"
        default:
            break
        }
        return nil
    }

    private mutating func zoom(to factor: Double) {
        switch LensForZoom.choose(factor: factor, lenses: lenses, maxDigitalZoom: maxDigitalZoom,
                                  optics: OpticalZoom.declared(by: lenses)) {
        case .success(let choice): active = choice.lens
        case .failure: break
        }
    }

    /// How a lens without camera controls is described, or `nil` for a camera.
    static func uncontrolledKind(_ source: Rig.Lens.Source) -> String? {
        switch source {
        case .camera: return nil
        case .virtual: return "a virtual lens (a test pattern)"
        case .file: return "a movie file"
        }
    }
}
