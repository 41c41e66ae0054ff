import PauseCamCore

/// Exposure and focus commands on a V4L2 camera go to its controls by ID. A missing control is reported once
/// through the camera's `warn` closure (which the composition root routes to the user), so nothing is returned here.
extension V4L2Camera: CameraControlling {
    public func setExposure(_ setting: Rig.ExposurePreset.Setting) throws -> [String] {
        controls.apply(setting)
        return []
    }

    public func setFocus(_ setting: Command.FocusChoice) throws -> [String] {
        switch setting {
        case .auto: controls.setFocus(.auto)
        case .manual(let position): controls.setFocus(.manual(position))
        case .point: controls.startOneShotAutofocus()
        }
        return []
    }

    /// UVC 1.5's region of interest where the camera (and the kernel) has it; `.unsupported` otherwise, so the
    /// engine falls back to one-shot autofocus.
    public func setRegionOfInterest(_ region: PixelRect) throws -> RegionOfInterestOutcome {
        try controls.setRegionOfInterest(region) ? .set : .unsupported
    }
}
