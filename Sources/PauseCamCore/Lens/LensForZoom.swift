/// How a zoom factor (`zoom 1.5`) is reached on a rig: the longest lens that does not overshoot the factor, then
/// its optical zoom where its camera has one (`OpticalZoom`), then digital zoom (a centre crop) for the rest —
/// honestly: a factor wider than every lens gets the widest lens and says so, and one that needs more digital zoom
/// than the rig allows (`max_digital_zoom`) is refused, naming the limit, rather than recorded as upscaled blur.
public struct LensForZoom: Sendable, Equatable {
    /// The lens role to use.
    public var lens: String
    /// The digital zoom on top of it (1 = none).
    public var digital: Double
    /// The camera's `zoom_absolute` for the factor, on a lens with optical zoom; `nil` on any other lens.
    public var optical: Int?
    /// What the reply says instead of the usual "zoom LENS", when the factor could not be met exactly.
    public var note: String?

    public init(lens: String, digital: Double, optical: Int? = nil, note: String? = nil) {
        self.lens = lens
        self.digital = digital
        self.optical = optical
        self.note = note
    }

    /// Why a factor cannot be reached.
    public struct Refusal: Error, Sendable, Equatable {
        public var message: String
    }

    /// Chooses among `lenses` (those with a camera) for `factor` (> 0), allowing at most `maxDigitalZoom`. `optics`
    /// holds the optical zoom of the lenses whose camera has one and whose rig entry says how far it reaches
    /// (`optical_max:`); a lens's own `zoom` is its widest either way.
    public static func choose(factor: Double, lenses: [Rig.Lens], maxDigitalZoom: Double,
                              optics: [String: OpticalZoom] = [:]) -> Result<LensForZoom, Refusal> {
        let tolerance = 1e-9
        guard let widest = lenses.min(by: { $0.zoom < $1.zoom }) else {
            return .failure(Refusal(message: "no lens has a camera"))
        }
        guard let lens = lenses.filter({ $0.zoom <= factor + tolerance }).max(by: { $0.zoom < $1.zoom }) else {
            return .success(LensForZoom(lens: widest.name, digital: 1,
                                        optical: optics[widest.name].map { $0.range.minimum },
                                        note: "no lens as wide as \(ZoomFactor.text(factor)); using \(widest.name) "
                                              + "(\(ZoomFactor.text(widest.zoom)))"))
        }
        let remainder = Swift.max(1, factor / lens.zoom)
        let split = optics[lens.name].map { $0.split(remainder) } ?? (units: nil, digital: remainder)
        guard split.digital <= maxDigitalZoom + tolerance else {
            let reach = lens.zoom * (optics[lens.name]?.maximumFactor ?? 1)
            let optical = optics[lens.name] == nil ? "" : " at its longest optical zoom"
            return .failure(Refusal(message: "zoom \(ZoomFactor.text(factor)) is beyond this rig: digital zoom is "
                + "limited to \(ZoomFactor.text(maxDigitalZoom)) (max_digital_zoom), so with \(lens.name) "
                + "(\(ZoomFactor.text(reach))\(optical)) the most is \(ZoomFactor.text(reach * maxDigitalZoom))"))
        }
        return .success(LensForZoom(lens: lens.name, digital: split.digital, optical: split.units))
    }
}
