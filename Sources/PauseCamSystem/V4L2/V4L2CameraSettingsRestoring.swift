import PauseCamCore

/// A V4L2 camera takes its lens's settings again after every start, and reads each back with `VIDIOC_G_CTRL`, so a
/// camera that reopened with its own defaults (or ignores a value) is told, not assumed.
extension V4L2Camera: CameraSettingsRestoring {
    public func applyLensControls(_ controls: Rig.Controls) {
        self.controls.apply(controls)
    }

    public func reportedValue(of control: CameraControlName) -> Int? {
        controls.current(V4L2ControlID(control)).map(Int.init)
    }
}

extension V4L2ControlID {
    /// The V4L2 control behind a Core control name.
    init(_ name: CameraControlName) {
        switch name {
        case .exposureMode: self = .exposureAuto
        case .exposureTime: self = .exposureTimeAbsolute
        case .gain: self = .gain
        case .focusAutomatic: self = .focusAuto
        case .focusAbsolute: self = .focusAbsolute
        case .powerLine: self = .powerLineFrequency
        case .exposurePriority: self = .exposureAutoPriority
        case .zoomAbsolute: self = .zoomAbsolute
        case .panAbsolute: self = .panAbsolute
        case .tiltAbsolute: self = .tiltAbsolute
        }
    }
}
