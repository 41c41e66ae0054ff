import CV4L2
import PauseCamCore

/// The argument of `VIDIOC_S_EXT_CTRLS` for one rectangle-valued control (`V4L2_CTRL_TYPE_RECT`, such as UVC 1.5's
/// region of interest): a `v4l2_ext_controls` of one `v4l2_ext_control` whose `ptr` points at a `v4l2_rect`. Built
/// here, apart from the ioctl, so the layout can be checked without a camera that has such a control.
public enum V4L2RectangleControl {
    /// `rectangle` as the kernel's `struct v4l2_rect` (left, top, width, height); negative sizes become 0.
    public static func kernelRectangle(_ rectangle: PixelRect) -> v4l2_rect {
        v4l2_rect(left: Int32(clamping: rectangle.x), top: Int32(clamping: rectangle.y),
                  width: UInt32(clamping: max(0, rectangle.width)), height: UInt32(clamping: max(0, rectangle.height)))
    }

    /// Calls `body` with the `VIDIOC_S_EXT_CTRLS` argument that sets control `id` to `rectangle` (the current
    /// value, `V4L2_CTRL_WHICH_CUR_VAL`). The pointers inside are valid only during `body`.
    public static func withExtendedControls<Result>(
        id: UInt32, rectangle: PixelRect,
        _ body: (UnsafeMutablePointer<v4l2_ext_controls>) throws -> Result
    ) rethrows -> Result {
        var value = kernelRectangle(rectangle)
        return try withUnsafeMutablePointer(to: &value) { valuePointer in
            var control = v4l2_ext_control()
            control.id = id
            control.size = UInt32(MemoryLayout<v4l2_rect>.size)
            control.ptr = UnsafeMutableRawPointer(valuePointer)
            return try withUnsafeMutablePointer(to: &control) { controlPointer in
                var controls = v4l2_ext_controls()
                controls.which = UInt32(V4L2_CTRL_WHICH_CUR_VAL)
                controls.count = 1
                controls.controls = controlPointer
                return try withUnsafeMutablePointer(to: &controls) { try body($0) }
            }
        }
    }
}
