/// A camera whose settings PauseCam puts back each time it (re)opens and then reads back (V4L2 cameras): a camera
/// reopened after an unplug or a freeze, or one opened on a cold switch, starts with its own defaults (or whatever
/// another program left), so the lens's `controls:` and the exposure, focus and PTZ position set during the session
/// are applied again, and a value the camera does not hold is told rather than assumed.
public protocol CameraSettingsRestoring: CameraControlling {
    /// Applies a lens's `controls:` (missing controls are warned about by the camera, once).
    func applyLensControls(_ controls: Rig.Controls)
    /// The value the camera holds now for `control`, or `nil` when it lacks the control or will not say.
    func reportedValue(of control: CameraControlName) -> Int?
}

/// The camera controls whose values PauseCam sets and reads back, under the names `v4l2-ctl` prints.
public enum CameraControlName: String, Sendable, Equatable, CaseIterable {
    /// The exposure mode menu (1 is manual).
    case exposureMode = "auto_exposure"
    /// The exposure time in 100 µs units.
    case exposureTime = "exposure_time_absolute"
    case gain
    /// Continuous autofocus, 1 on, 0 off.
    case focusAutomatic = "focus_automatic_continuous"
    case focusAbsolute = "focus_absolute"
    /// Anti-flicker: 0 disabled, 1 50 Hz, 2 60 Hz, 3 auto.
    case powerLine = "power_line_frequency"
    /// Whether auto exposure may lower the frame rate, 1 or 0.
    case exposurePriority = "exposure_dynamic_framerate"
    /// A PTZ camera's optical zoom, in its own units.
    case zoomAbsolute = "zoom_absolute"
    /// A PTZ camera's pan, in arc seconds.
    case panAbsolute = "pan_absolute"
    /// A PTZ camera's tilt, in arc seconds.
    case tiltAbsolute = "tilt_absolute"
}
