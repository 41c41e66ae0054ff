import PauseCamCore

/// Everything `pausecam devices` shows about one camera: who it is, how it can stream, which controls it has.
public struct CameraDescription: Sendable {
    /// Who the camera is (what rig rules match on).
    public var identity: CameraIdentity
    /// Formats × sizes × rates; empty when the node could not be opened (see `problem`).
    public var modes: [V4L2Mode]
    /// The PauseCam controls the camera has, with their ranges and the value each holds now (`nil` when the
    /// camera would not say).
    public var controls: [(id: V4L2ControlID, info: V4L2ControlInfo, current: Int32?)]
    /// Why formats and controls are missing (permission denied, busy…), in words for the user.
    public var problem: String?
    /// Where the camera sits on USB (bus, port, speed), from sysfs; `nil` when it is not a USB camera.
    public var usbPlacement: USBPlacement?

    public init(identity: CameraIdentity, modes: [V4L2Mode] = [],
                controls: [(id: V4L2ControlID, info: V4L2ControlInfo, current: Int32?)] = [], problem: String? = nil,
                usbPlacement: USBPlacement? = nil) {
        self.identity = identity
        self.modes = modes
        self.controls = controls
        self.problem = problem
        self.usbPlacement = usbPlacement
    }
}
