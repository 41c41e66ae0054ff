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
    /// Tells the camera to focus and expose for `region`, in the pixels of the picture it delivers (`format`), as
    /// UVC 1.5's region of interest does; the caller has already mapped the user's tap to it (`TapRegion`). A
    /// camera without a region of interest returns `.unsupported` and changes nothing: that is the default, so
    /// virtual and movie-file lenses say so. Throws when the camera has the control but refuses the value.
    func setRegionOfInterest(_ region: PixelRect) throws -> RegionOfInterestOutcome
    /// For a lens with `format: auto`, the encoding the camera was opened in and why ("MJPEG: shares controller
    /// 0000:00:14.0 with lens tele"), for the sidecar's device list; `nil` (the default) for any other lens.
    var formatChoice: String? { get }
}

extension Camera {
    /// No `format: auto` choice: virtual lenses, movie files and cameras opened in the format the lens names.
    public var formatChoice: String? { nil }

    /// No region of interest: virtual lenses, movie files and cameras without the control.
    public func setRegionOfInterest(_ region: PixelRect) throws -> RegionOfInterestOutcome { .unsupported }
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
