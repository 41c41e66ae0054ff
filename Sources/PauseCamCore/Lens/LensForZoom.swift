/// How a zoom factor (`zoom 1.5`) is reached on a rig: the longest lens that does not overshoot the factor, then
/// digital zoom (a centre crop) for the rest — honestly: a factor wider than every lens gets the widest lens and
/// says so, and one that needs more digital zoom than the rig allows (`max_digital_zoom`) is refused, naming the
/// limit, rather than recorded as upscaled blur.
public struct LensForZoom: Sendable, Equatable {
    /// The lens role to use.
    public var lens: String
    /// The digital zoom on top of it (1 = none).
    public var digital: Double
    /// What the reply says instead of the usual "zoom LENS", when the factor could not be met exactly.
    public var note: String?

    /// Why a factor cannot be reached.
    public struct Refusal: Error, Sendable, Equatable {
        public var message: String
    }

    /// Chooses among `lenses` (those with a camera) for `factor` (> 0), allowing at most `maxDigitalZoom`.
    public static func choose(factor: Double, lenses: [Rig.Lens], maxDigitalZoom: Double)
        -> Result<LensForZoom, Refusal> {
        let tolerance = 1e-9
        guard let widest = lenses.min(by: { $0.zoom < $1.zoom }) else {
            return .failure(Refusal(message: "no lens has a camera"))
        }
        guard let lens = lenses.filter({ $0.zoom <= factor + tolerance }).max(by: { $0.zoom < $1.zoom }) else {
            return .success(LensForZoom(lens: widest.name, digital: 1,
                                        note: "no lens as wide as \(ZoomFactor.text(factor)); using \(widest.name) "
                                              + "(\(ZoomFactor.text(widest.zoom)))"))
        }
        let digital = Swift.max(1, factor / lens.zoom)
        guard digital <= maxDigitalZoom + tolerance else {
            return .failure(Refusal(message: "zoom \(ZoomFactor.text(factor)) is beyond this rig: digital zoom is "
                + "limited to \(ZoomFactor.text(maxDigitalZoom)) (max_digital_zoom), so with \(lens.name) "
                + "(\(ZoomFactor.text(lens.zoom))) the most is \(ZoomFactor.text(lens.zoom * maxDigitalZoom))"))
        }
        return .success(LensForZoom(lens: lens.name, digital: digital, note: nil))
    }
}
