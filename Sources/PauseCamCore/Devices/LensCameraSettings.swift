import Foundation

/// The settings a lens's camera should have whenever it is open: the rig's `controls:`, the last exposure and
/// focus the user set during the session (`exposure night`, `focus 40`), and the last optical zoom, pan and tilt
/// PauseCam gave a PTZ camera (a zoom preset's `optical:`/`ptz:`, `zoom F`'s optical share, a ramp's target). `DeviceHub` keeps one per lens and applies
/// it after every start of the lens's camera (the rig's start, a cold switch, a re-plug, a watchdog restart), then
/// compares what the camera reports with `expectedValues`.
public struct LensCameraSettings: Sendable, Equatable {
    /// The lens's `controls:` from the rig file.
    public var controls: Rig.Controls
    /// The exposure set during the session, if any: it replaces `controls.exposure`.
    public var exposure: Rig.ExposurePreset.Setting?
    /// The focus set during the session, if any: it replaces `controls.focus`.
    public var focus: Command.FocusChoice?
    /// The PTZ position set during the session, axis by axis (already within the camera's ranges); empty until one
    /// is set.
    public var ptz = PTZPosition()

    public init(controls: Rig.Controls, exposure: Rig.ExposurePreset.Setting? = nil,
                focus: Command.FocusChoice? = nil) {
        self.controls = controls
        self.exposure = exposure
        self.focus = focus
    }

    /// One control's asked value.
    public struct Expected: Sendable, Equatable {
        public var control: CameraControlName
        public var value: Int
        public init(_ control: CameraControlName, _ value: Int) {
            self.control = control
            self.value = value
        }
    }

    /// The values a camera that took every setting reports, in the order they are set. Automatic exposure and an
    /// exposure bias expect nothing exact: cameras answer "auto" with different menu items, and a bias with the
    /// nearest item of their own menu.
    public var expectedValues: [Expected] {
        var values: [Expected] = []
        if let exposure {
            if case .manual(let time, let gain) = exposure {
                let units = (try? time.rescaled(to: 10_000, rounding: .nearest).value) ?? Int64(Int32.max)
                values += [Expected(.exposureMode, 1), Expected(.exposureTime, Int(clamping: units))]
                if let gain { values.append(Expected(.gain, gain)) }
            }
        } else if case .manual(let units)? = controls.exposure {
            values += [Expected(.exposureMode, 1), Expected(.exposureTime, units)]
        }
        if let focus {
            if case .manual(let position) = focus {
                values += [Expected(.focusAutomatic, 0), Expected(.focusAbsolute, position)]
            } else if case .auto = focus {
                values.append(Expected(.focusAutomatic, 1))
            }
        } else if let focus = controls.focus {
            switch focus {
            case .auto: values.append(Expected(.focusAutomatic, 1))
            case .manual(let position): values += [Expected(.focusAutomatic, 0), Expected(.focusAbsolute, position)]
            }
        }
        if let powerLine = controls.powerLine {
            let menu: [Rig.Controls.PowerLine: Int] = [.disabled: 0, .hz50: 1, .hz60: 2, .auto: 3]
            values.append(Expected(.powerLine, menu[powerLine] ?? 0))
        }
        values.append(Expected(.exposurePriority, controls.exposurePriority == true ? 1 : 0))
        for axis in PTZAxis.allCases { if let value = ptz[axis] { values.append(Expected(axis.control, value)) } }
        return values
    }

    /// A setting the camera does not hold after it was applied.
    public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
        public var control: CameraControlName
        public var asked: Int
        public var reported: Int

        public init(control: CameraControlName, asked: Int, reported: Int) {
            self.control = control
            self.asked = asked
            self.reported = reported
        }

        /// "focus_absolute: asked 40, camera reports 0".
        public var description: String { "\(control.rawValue): asked \(asked), camera reports \(reported)" }
    }

    /// Applies every setting to `camera`, in order (the lens's `controls:`, then the session's exposure, focus and
    /// PTZ position — the last only on a `CameraPTZ`), and reads each expected value back; returns the warnings of the setters and the values the camera does not
    /// hold. A control the camera lacks or will not read is not a mismatch (the camera warns about it itself).
    public func restore(on camera: any CameraSettingsRestoring) -> (warnings: [String], mismatches: [Mismatch]) {
        var warnings: [String] = []
        camera.applyLensControls(controls)
        do {
            if let exposure { warnings += try camera.setExposure(exposure) }
            if let focus { warnings += try camera.setFocus(focus) }
            if !ptz.isEmpty, let moving = camera as? any CameraPTZ { try moving.movePTZ(to: ptz) }
        } catch {
            warnings.append("\(error)")
        }
        let mismatches = expectedValues.compactMap { expected -> Mismatch? in
            guard let reported = camera.reportedValue(of: expected.control), reported != expected.value else { return nil }
            return Mismatch(control: expected.control, asked: expected.value, reported: reported)
        }
        return (warnings, mismatches)
    }

    /// Remembers the PTZ axes `position` names (the others keep their last value), so a reopened camera is moved
    /// back there.
    public mutating func remember(ptz position: PTZPosition) {
        ptz = ptz.updated(with: position)
    }

    /// Remembers a control command the user gave on this lens (`exposure …`, `focus …`) so a reopened camera gets
    /// it back; `rig` resolves exposure presets. Other commands change nothing here.
    public mutating func remember(_ command: Command, rig: Rig) {
        switch command {
        case .exposure(let choice):
            switch choice {
            case .auto: exposure = .auto
            case .bias(let ev): exposure = .bias(ev)
            case .preset(let name): if let preset = rig.exposurePreset(named: name) { exposure = preset.setting }
            }
        case .focus(let choice):
            focus = choice
        default:
            break
        }
    }
}
