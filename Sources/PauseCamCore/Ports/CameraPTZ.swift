/// A camera with motorised optical zoom, pan or tilt (a PTZ webcam, or a UVC camera with only `zoom_absolute`):
/// zoom presets with `optical:` and `ptz:`, the optical share of `zoom F`, and ramps drive it.
///
/// Commands and ramps call `movePTZ(to:)` on the device worker, never on the serial context: a motor control goes
/// over USB and may take milliseconds, and a ramp sets one value per output frame. (The one exception is the
/// settings restored after a (re)open, set and read back with the lens's other controls, once.) The ranges are read
/// once when the camera is opened, so the serial context plans with them without asking the camera; an
/// implementation must therefore take `movePTZ` from any one thread at a time.
public protocol CameraPTZ: AnyObject, Sendable {
    /// The range of each axis the camera has; an axis it lacks is absent.
    var ptzRanges: [PTZAxis: PTZRange] { get }
    /// Sets the named axes (already within their ranges). Throws when the camera refuses a value or is gone.
    func movePTZ(to position: PTZPosition) throws
}

/// One PTZ control's range as the camera reports it, and the value it held when it was opened.
public struct PTZRange: Sendable, Equatable {
    public var minimum: Int
    public var maximum: Int
    /// The granularity (values are `minimum + k × step`); at least 1.
    public var step: Int
    /// The camera's power-on value.
    public var defaultValue: Int
    /// What the camera held when it was opened (`nil` when it would not say): where a first ramp starts from.
    public var current: Int?

    public init(minimum: Int, maximum: Int, step: Int = 1, defaultValue: Int, current: Int? = nil) {
        self.minimum = minimum
        self.maximum = Swift.max(minimum, maximum)
        self.step = Swift.max(1, step)
        self.defaultValue = defaultValue
        self.current = current
    }

    /// `value` brought into the range and onto its step grid (the nearest step, then clamped).
    public func clamp(_ value: Int) -> Int {
        let bounded = Swift.min(Swift.max(value, minimum), maximum)
        let steps = ((bounded - minimum) + step / 2) / step
        return Swift.min(minimum + steps * step, maximum)
    }

    /// Where a camera that was given nothing yet stands: what it reported at opening, else its default.
    public var start: Int { clamp(current ?? defaultValue) }

    /// `100…500` (with ` step 3600` when the step is not 1).
    public var text: String { "\(minimum)…\(maximum)" + (step > 1 ? " step \(step)" : "") }
}
