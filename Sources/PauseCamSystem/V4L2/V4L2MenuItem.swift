/// One entry of `VIDIOC_QUERYMENU`: a menu control's item (by name) or an integer menu's item (by value).
public struct V4L2MenuItem: Sendable, Equatable {
    /// The value to set the control to for this item.
    public var index: UInt32
    /// The item's text for `V4L2_CTRL_TYPE_MENU`.
    public var name: String?
    /// The item's value for `V4L2_CTRL_TYPE_INTEGER_MENU` (exposure bias: 0.001 EV units).
    public var value: Int64?

    public init(index: UInt32, name: String? = nil, value: Int64? = nil) {
        self.index = index
        self.name = name
        self.value = value
    }
}
