/// One camera lens as the USB planner sees it: which lens, where its camera sits and the mode it streams in.
public struct USBCameraLoad: Sendable, Equatable {
    public var lens: String
    public var placement: USBPlacement
    public var mode: USBStreamMode

    public init(lens: String, placement: USBPlacement, mode: USBStreamMode) {
        self.lens = lens
        self.placement = placement
        self.mode = mode
    }
}
