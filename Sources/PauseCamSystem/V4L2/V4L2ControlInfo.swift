/// What `VIDIOC_QUERYCTRL` says about one control: its range and kind, used to clamp values and to list controls.
public struct V4L2ControlInfo: Sendable, Equatable {
    /// The `V4L2_CID_*` it describes.
    public var id: UInt32
    /// The driver's name for it; changes between kernels, so never used to find a control.
    public var name: String
    /// Integer, boolean, menu… (`type`).
    public var type: Kind
    /// Smallest value (or first menu index).
    public var minimum: Int32
    /// Largest value (or last menu index).
    public var maximum: Int32
    /// Value granularity.
    public var step: Int32
    /// The driver's power-on value.
    public var defaultValue: Int32
    /// `V4L2_CTRL_FLAG_DISABLED`: present in the ID space but not usable.
    public var disabled: Bool

    public init(id: UInt32, name: String, type: Kind, minimum: Int32, maximum: Int32, step: Int32 = 1,
                defaultValue: Int32, disabled: Bool = false) {
        self.id = id
        self.name = name
        self.type = type
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.disabled = disabled
    }

    /// `V4L2_CTRL_TYPE_*`.
    public enum Kind: UInt32, Sendable {
        case integer = 1, boolean = 2, menu = 3, button = 4, integer64 = 5, controlClass = 6, string = 7,
             bitmask = 8, integerMenu = 9
        case other = 0
    }

    /// `value` brought into `minimum...maximum`.
    public func clamp(_ value: Int32) -> Int32 { min(max(value, minimum), maximum) }
}
