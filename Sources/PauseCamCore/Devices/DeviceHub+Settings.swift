import Foundation

/// The camera settings side of `DeviceHub`: each lens's `LensCameraSettings` (the rig's `controls:` and the
/// exposure and focus the user set this session) go back to its camera after every start — the rig's start, a
/// cold switch, a re-plug, a watchdog restart — and are read back; a value the camera does not hold is reported
/// (`Report.settingNotHeld`) for the owner to tell and note in a sidecar.
extension DeviceHub {
    /// Remembers a control command the user gave on `lens` (`exposure …`, `focus …`) after it was applied, so the
    /// lens's camera gets it back whenever it opens again.
    public func remember(_ command: Command, lens: String) {
        serialContext.assertOnSerialContext()
        lensSettings[lens]?.remember(command, rig: rig)
    }

    /// `camera` started streaming for `lens` (on the device worker): its settings are applied again and read back,
    /// unless it no longer serves the lens or cannot take settings (a virtual lens).
    func cameraStarted(_ camera: any Camera, lens name: String) {
        guard !devicesStopped, let current = cameras[name], current === camera,
              let restoring = camera as? any CameraSettingsRestoring, let settings = lensSettings[name] else { return }
        let restored = settings.restore(on: restoring)
        for warning in restored.warnings { report(.clipWarning("lens \(name): \(warning)")) }
        for mismatch in restored.mismatches {
            report(.settingNotHeld(lens: name, camera: camera.displayName, mismatch: mismatch))
        }
    }
}
