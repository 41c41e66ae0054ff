import CV4L2

/// What `VIDIOC_QUERY_EXT_CTRL` says about one control: enough to know a compound control (one that holds a struct,
/// such as UVC's region-of-interest rectangle) is there and of the kind PauseCam writes, which `VIDIOC_QUERYCTRL`
/// cannot describe.
public struct V4L2ExtendedControlInfo: Sendable, Equatable {
    /// The `V4L2_CID_*` it describes.
    public var id: UInt32
    /// `V4L2_CTRL_TYPE_*`, as the kernel numbers it (compound types included).
    public var type: UInt32
    /// The size in bytes of one element of its value.
    public var elementSize: UInt32
    /// `V4L2_CTRL_FLAG_DISABLED`: present in the ID space but not usable.
    public var disabled: Bool

    public init(id: UInt32, type: UInt32, elementSize: UInt32, disabled: Bool = false) {
        self.id = id
        self.type = type
        self.elementSize = elementSize
        self.disabled = disabled
    }

    /// `V4L2_CTRL_TYPE_RECT`: the value is one `struct v4l2_rect`.
    public var isRectangle: Bool {
        type == pausecam_v4l2_ctrl_type_rect() && elementSize == UInt32(MemoryLayout<v4l2_rect>.size)
    }
}
