/// How a lens with a motorised zoom (`zoom_absolute`) reaches a magnification: optical zoom first, then digital
/// zoom for what the optics cannot reach. Pure arithmetic; the controller gives it the range the camera reported
/// and the lens's `optical_max:` from the rig.
///
/// The mapping: the magnification is linear in zoom units, 1× (the lens's own `zoom`) at the range's minimum and
/// `optical_max`× at its maximum. UVC defines `zoom_absolute` in units of the objective's focal length, and
/// magnification is proportional to focal length, so a camera whose units are focal lengths is exactly linear;
/// cameras that number their range 100…500 for 1×…5× are too. A camera whose units are not linear is off in the
/// middle of its range and exact at both ends; `optical_max:` is what the user measured or read in the data sheet.
///
/// A factor within the optics becomes the nearest zoom unit (on the control's step grid) and no digital zoom; a
/// factor beyond them becomes the range's maximum and a digital zoom of `factor / optical_max`. Digital zoom never
/// stands in for optics the camera has, since a centre crop loses resolution and optical zoom does not.
public struct OpticalZoom: Sendable, Equatable {
    /// The camera's `zoom_absolute` range.
    public var range: PTZRange
    /// The magnification at the range's maximum (`optical_max:`), relative to the lens's own zoom; at least 1.
    public var maximumFactor: Double

    public init(range: PTZRange, maximumFactor: Double) {
        self.range = range
        self.maximumFactor = Swift.max(1, maximumFactor)
    }

    /// The magnification the optics give at `units` (clamped into the range).
    public func factor(atUnits units: Int) -> Double {
        let span = range.maximum - range.minimum
        guard span > 0 else { return 1 }
        let position = Double(Swift.min(Swift.max(units, range.minimum), range.maximum) - range.minimum)
        return 1 + position / Double(span) * (maximumFactor - 1)
    }

    /// The zoom units nearest to `factor` within the range (a factor at or below 1 is the minimum, one at or beyond
    /// `maximumFactor` the maximum).
    public func units(forFactor factor: Double) -> Int {
        guard maximumFactor > 1, factor.isFinite, factor > 1 else { return range.minimum }
        guard factor < maximumFactor else { return range.maximum }
        let position = (factor - 1) / (maximumFactor - 1) * Double(range.maximum - range.minimum)
        let steps = (position / Double(range.step)).rounded()
        return range.clamp(range.minimum + Int(steps) * range.step)
    }

    /// `factor` (≥ 1, relative to the lens's own zoom) as zoom units and the digital zoom on top of them (1 when
    /// the optics reach the factor).
    public func split(_ factor: Double) -> (units: Int, digital: Double) {
        let units = units(forFactor: factor)
        guard factor > maximumFactor else { return (units, 1) }
        return (units, factor / maximumFactor)
    }

    /// The optics the rig declares (`optical_max:`), for checks made before any camera is known (`check`, a
    /// script's `zoom F` steps): the reach is exact, the zoom units are a stand-in range until the camera says its
    /// own.
    public static func declared(by lenses: [Rig.Lens]) -> [String: OpticalZoom] {
        var optics: [String: OpticalZoom] = [:]
        for lens in lenses {
            guard let factor = lens.opticalMax else { continue }
            optics[lens.name] = OpticalZoom(range: PTZRange(minimum: 0, maximum: 1000, defaultValue: 0),
                                            maximumFactor: factor)
        }
        return optics
    }
}
