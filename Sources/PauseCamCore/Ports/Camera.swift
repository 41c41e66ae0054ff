/// A source of video frames: a V4L2 camera (PauseCamSystem) or a virtual lens (PauseCamVirtual).
///
/// A camera delivers frames stamped with their capture time on the session clock, from whatever thread it
/// captures on; the controller posts them to a bounded mailbox per camera, drained on the serial context.
public protocol Camera: AnyObject, Sendable {
    /// A name for messages and the sidecar's device list ("Virtual wide", "/dev/video2 (HD Pro Webcam C920)").
    var displayName: String { get }
    /// What the camera will deliver once started.
    var format: CameraFormat { get }
    /// Starts delivering frames to `deliver`; `onEnd` is called once if the camera stops by itself (unplugged),
    /// with the reason.
    func start(deliver: @escaping @Sendable (VideoFrame) -> Void, onEnd: @escaping @Sendable (String) -> Void) throws
    /// Stops delivering; idempotent.
    func stop()
}

/// The size, rate and pixel format a camera delivers.
public struct CameraFormat: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var rate: FrameRate
    public var pixelFormat: PixelFormat
    public init(width: Int, height: Int, rate: FrameRate, pixelFormat: PixelFormat) {
        self.width = width
        self.height = height
        self.rate = rate
        self.pixelFormat = pixelFormat
    }
}

/// A camera whose exposure and focus can be set (V4L2 cameras). A lens whose camera does not conform reports that
/// it has no such control, and nothing else changes.
public protocol CameraControlling: AnyObject {
    /// Applies an exposure setting; returns warnings for controls the camera lacks (recording goes on).
    func setExposure(_ setting: Rig.ExposurePreset.Setting) throws -> [String]
    /// Applies a focus setting; returns warnings for controls the camera lacks.
    func setFocus(_ setting: Command.FocusChoice) throws -> [String]
}
