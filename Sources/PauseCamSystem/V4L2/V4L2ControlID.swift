import CV4L2
import PauseCamCore

/// The camera controls PauseCam drives, by V4L2 control ID. Controls are found by ID, never by the driver's name
/// for them (those changed in Linux 5.16); `name` is the v4l2-ctl name used in messages.
public enum V4L2ControlID: CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// `V4L2_CID_ZOOM_ABSOLUTE`: optical (or the camera's own digital) zoom.
    case zoomAbsolute
    /// `V4L2_CID_PAN_ABSOLUTE`: a PTZ camera's pan in arc seconds, negative to the left.
    case panAbsolute
    /// `V4L2_CID_TILT_ABSOLUTE`: a PTZ camera's tilt in arc seconds, negative downwards.
    case tiltAbsolute
    /// `V4L2_CID_EXPOSURE_AUTO`: a menu; UVC usually offers only manual (1) and aperture priority (3).
    case exposureAuto
    /// `V4L2_CID_EXPOSURE_ABSOLUTE`: exposure time in 100 µs units.
    case exposureTimeAbsolute
    /// `V4L2_CID_AUTO_EXPOSURE_BIAS`: an integer menu in 0.001 EV units; few UVC cameras have it.
    case autoExposureBias
    /// `V4L2_CID_GAIN`.
    case gain
    /// `V4L2_CID_FOCUS_AUTO`: continuous autofocus on/off.
    case focusAuto
    /// `V4L2_CID_FOCUS_ABSOLUTE`.
    case focusAbsolute
    /// `V4L2_CID_POWER_LINE_FREQUENCY`: a menu, 0 disabled, 1 50 Hz, 2 60 Hz, 3 auto.
    case powerLineFrequency
    /// `V4L2_CID_EXPOSURE_AUTO_PRIORITY`: a boolean; on, auto exposure may lower the frame rate in low light.
    case exposureAutoPriority
    /// `V4L2_CID_AUTO_FOCUS_START`: a button that focuses once (one-shot autofocus).
    case autoFocusStart
    /// `V4L2_CID_UVC_REGION_OF_INTEREST_AUTO`: a bitmask of what the camera drives from its region of interest
    /// (`V4L2_UVC_REGION_OF_INTEREST_AUTO_EXPOSURE`, `_FOCUS`, …); the rectangle itself is a compound control
    /// (`V4L2Controls.setRegionOfInterest`).
    case regionOfInterestAuto

    /// The kernel's control ID.
    public var id: UInt32 {
        switch self {
        case .zoomAbsolute: return pausecam_v4l2_cid_zoom_absolute()
        case .panAbsolute: return pausecam_v4l2_cid_pan_absolute()
        case .tiltAbsolute: return pausecam_v4l2_cid_tilt_absolute()
        case .exposureAuto: return pausecam_v4l2_cid_exposure_auto()
        case .exposureTimeAbsolute: return pausecam_v4l2_cid_exposure_absolute()
        case .autoExposureBias: return pausecam_v4l2_cid_auto_exposure_bias()
        case .gain: return pausecam_v4l2_cid_gain()
        case .focusAuto: return pausecam_v4l2_cid_focus_auto()
        case .focusAbsolute: return pausecam_v4l2_cid_focus_absolute()
        case .powerLineFrequency: return pausecam_v4l2_cid_power_line_frequency()
        case .exposureAutoPriority: return pausecam_v4l2_cid_exposure_auto_priority()
        case .autoFocusStart: return pausecam_v4l2_cid_auto_focus_start()
        case .regionOfInterestAuto: return pausecam_v4l2_cid_uvc_region_of_interest_auto()
        }
    }

    /// The name `v4l2-ctl` prints on current kernels.
    public var description: String {
        switch self {
        case .zoomAbsolute: return "zoom_absolute"
        case .panAbsolute: return "pan_absolute"
        case .tiltAbsolute: return "tilt_absolute"
        case .exposureAuto: return "auto_exposure"
        case .exposureTimeAbsolute: return "exposure_time_absolute"
        case .autoExposureBias: return "auto_exposure_bias"
        case .gain: return "gain"
        case .focusAuto: return "focus_automatic_continuous"
        case .focusAbsolute: return "focus_absolute"
        case .powerLineFrequency: return "power_line_frequency"
        case .exposureAutoPriority: return "exposure_dynamic_framerate"
        case .autoFocusStart: return "auto_focus_start"
        case .regionOfInterestAuto: return "region_of_interest_auto_control"
        }
    }

    /// The PTZ axis this control moves, for the three motor controls; `nil` for the others.
    public var ptzAxis: PTZAxis? {
        switch self {
        case .zoomAbsolute: return .zoom
        case .panAbsolute: return .pan
        case .tiltAbsolute: return .tilt
        default: return nil
        }
    }

    /// The control behind a PTZ axis.
    public init(_ axis: PTZAxis) {
        switch axis {
        case .zoom: self = .zoomAbsolute
        case .pan: self = .panAbsolute
        case .tilt: self = .tiltAbsolute
        }
    }

    /// `V4L2_EXPOSURE_*` menu values of `exposureAuto`.
    public enum ExposureMode: Int32, CaseIterable, Sendable {
        case auto = 0, manual = 1, shutterPriority = 2, aperturePriority = 3
    }
}
