/// One camera lens as the USB planner sees it: which lens, where its camera sits and the mode it streams in.
public struct USBCameraLoad: Sendable, Equatable {
    /// The lens's name in the rig, which the plan's lines and fixes use.
    public var lens: String
    /// Where its camera sits: from sysfs, or the lens's `usb_port:` when the camera is absent.
    public var placement: USBPlacement
    /// The mode it streams in: the one a session would choose, or the one the lens asks for.
    public var mode: USBStreamMode

    public init(lens: String, placement: USBPlacement, mode: USBStreamMode) {
        self.lens = lens
        self.placement = placement
        self.mode = mode
    }
}
