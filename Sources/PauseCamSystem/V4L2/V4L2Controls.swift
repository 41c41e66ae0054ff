import CV4L2
import Foundation
import PauseCamCore

/// A camera's controls under Swift names: turns rig settings (`controls:`, exposure presets, zoom) into
/// `VIDIOC_S_CTRL` calls by control ID. A control the camera lacks, or a call that fails, becomes one warning
/// naming the camera and the control — once per control — and never stops a recording.
///
/// Owned by the `V4L2Camera` that made it; call it from one thread at a time.
public final class V4L2Controls {
    private let device: V4L2Device
    private let cameraName: String
    private let warn: (String) -> Void
    private var infos: [V4L2ControlID: V4L2ControlInfo?] = [:]
    private var warned: Set<V4L2ControlID> = []

    /// `warn` receives user-facing warnings (the composition root prints or logs them).
    public init(device: V4L2Device, cameraName: String, warn: @escaping (String) -> Void) {
        self.device = device
        self.cameraName = cameraName
        self.warn = warn
    }

    /// What the camera says about `control`, or `nil` when it lacks it (asked once, then remembered).
    public func info(_ control: V4L2ControlID) -> V4L2ControlInfo? {
        if let known = infos[control] { return known }
        let found = (try? device.queryControl(id: control.id)).flatMap { $0 }
        let usable = (found?.disabled ?? true) ? nil : found
        infos[control] = usable
        return usable
    }

    /// Every PauseCam control the camera has, for `pausecam devices`.
    public func available() -> [(V4L2ControlID, V4L2ControlInfo)] {
        V4L2ControlID.allCases.compactMap { id in info(id).map { (id, $0) } }
    }

    /// The value the camera holds for `control` now (`VIDIOC_G_CTRL`), or `nil` when it lacks the control or will
    /// not say (write-only controls, a driver that fails the call): what `pausecam devices` shows beside the
    /// range and default, so a user sees what a previous program or session left set.
    public func current(_ control: V4L2ControlID) -> Int32? {
        guard info(control) != nil else { return nil }
        return try? device.getControl(id: control.id)
    }

    /// Applies a lens's `controls:`. Exposure `manual(n)` is in 100 µs units, like `exposure_time_absolute`.
    public func apply(_ controls: Rig.Controls) {
        switch controls.exposure {
        case .auto?: setAutoExposure()
        case .manual(let units)?: setManualExposure(units: Int32(clamping: units), gain: nil)
        case nil: break
        }
        if let focus = controls.focus { setFocus(focus) }
        if let powerLine = controls.powerLine { setPowerLine(powerLine) }
        setExposurePriority(controls.exposurePriority)
    }

    /// Whether auto exposure may lower the frame rate in low light. Off unless the rig asks (`exposure_priority:
    /// true`): most UVC cameras default to on and drop to 15 fps in a dim room. A camera without the control is
    /// warned about only when the rig asked for it.
    public func setExposurePriority(_ asked: Bool?) {
        guard info(.exposureAutoPriority) != nil else {
            if asked != nil { missing(.exposureAutoPriority) }
            return
        }
        set(.exposureAutoPriority, asked == true ? 1 : 0)
    }

    /// Applies an exposure preset: auto, auto with a bias, or manual time (and gain).
    public func apply(_ setting: Rig.ExposurePreset.Setting) {
        switch setting {
        case .auto:
            setAutoExposure()
            if info(.autoExposureBias) != nil { setExposureBias(millistops: 0) }
        case .bias(let ev):
            setAutoExposure()
            setExposureBias(millistops: Int64((ev * 1000).rounded()))
        case .manual(let time, let gain):
            let units = (try? time.rescaled(to: 10_000, rounding: .nearest).value) ?? Int64(Int32.max)
            setManualExposure(units: Int32(clamping: units), gain: gain.map { Int32(clamping: $0) })
        }
    }

    /// Sets `zoom_absolute`, clamped to the camera's range.
    public func setZoom(absolute value: Int32) {
        set(.zoomAbsolute, value)
    }

    /// The range and present value of each PTZ control the camera has (integer controls only: a driver that
    /// offers pan as a relative button is not a PTZ camera to PauseCam).
    public func ptzRanges() -> [PTZAxis: PTZRange] {
        var ranges: [PTZAxis: PTZRange] = [:]
        for axis in PTZAxis.allCases {
            let control = V4L2ControlID(axis)
            guard let info = info(control), info.type == .integer else { continue }
            ranges[axis] = PTZRange(minimum: Int(info.minimum), maximum: Int(info.maximum), step: Int(info.step),
                                    defaultValue: Int(info.defaultValue), current: current(control).map(Int.init))
        }
        return ranges
    }

    /// Autofocus, or manual focus at `focus_absolute` = n.
    public func setFocus(_ mode: Rig.Controls.Mode) {
        switch mode {
        case .auto: set(.focusAuto, 1)
        case .manual(let n):
            set(.focusAuto, 0)
            set(.focusAbsolute, Int32(clamping: n))
        }
    }

    /// One-shot autofocus: `auto_focus_start` where the camera has it; otherwise continuous autofocus
    /// (`focus_automatic_continuous` on), the nearest a camera without the button offers.
    public func startOneShotAutofocus() {
        if info(.autoFocusStart) != nil { return set(.autoFocusStart, 1) }
        set(.focusAuto, 1)
    }

    /// Points the camera's region of interest (UVC 1.5) at `region`, in the pixels of the picture it delivers, and
    /// lets its automatic exposure and focus follow it (`region_of_interest_auto_control`, where the camera has
    /// that bitmask), then focuses once where it has `auto_focus_start`. Returns false, having changed nothing,
    /// when the camera has no region of interest (most cameras, and every kernel before the control existed);
    /// throws when it has one but refuses the rectangle.
    public func setRegionOfInterest(_ region: PixelRect) throws -> Bool {
        let rectangle = pausecam_v4l2_cid_uvc_region_of_interest_rect()
        guard let found = try? device.queryExtendedControl(id: rectangle), !found.disabled, found.isRectangle else {
            return false
        }
        try device.setRectangleControl(id: rectangle, to: region)
        if let automatic = info(.regionOfInterestAuto) {
            let wanted = Int32(bitPattern: pausecam_v4l2_uvc_region_of_interest_auto_exposure()
                                           | pausecam_v4l2_uvc_region_of_interest_auto_focus())
            // Only the bits the camera offers (its maximum is the mask of those it supports).
            set(.regionOfInterestAuto, wanted & automatic.maximum)
        }
        if info(.autoFocusStart) != nil { set(.autoFocusStart, 1) }
        return true
    }

    /// The anti-flicker setting.
    public func setPowerLine(_ setting: Rig.Controls.PowerLine) {
        let value: v4l2_power_line_frequency
        switch setting {
        case .disabled: value = V4L2_CID_POWER_LINE_FREQUENCY_DISABLED
        case .hz50: value = V4L2_CID_POWER_LINE_FREQUENCY_50HZ
        case .hz60: value = V4L2_CID_POWER_LINE_FREQUENCY_60HZ
        case .auto: value = V4L2_CID_POWER_LINE_FREQUENCY_AUTO
        }
        set(.powerLineFrequency, Int32(value.rawValue))
    }

    /// Automatic exposure: the menu's `auto` item when offered, else aperture priority (UVC's "auto": the camera
    /// picks the exposure time with a fixed iris).
    public func setAutoExposure() {
        guard info(.exposureAuto) != nil else { return missing(.exposureAuto) }
        let offered = menuIndices(.exposureAuto)
        let mode = [V4L2ControlID.ExposureMode.auto, .aperturePriority].first {
            offered.isEmpty || offered.contains(UInt32($0.rawValue))
        } ?? .aperturePriority
        set(.exposureAuto, mode.rawValue)
    }

    /// Manual exposure: mode manual, then the time in 100 µs units, then gain when given.
    public func setManualExposure(units: Int32, gain: Int32?) {
        set(.exposureAuto, V4L2ControlID.ExposureMode.manual.rawValue)
        set(.exposureTimeAbsolute, units)
        if let gain { set(.gain, gain) }
    }

    /// Exposure compensation in 0.001 EV: the nearest item of the integer menu, or the value itself for an
    /// integer control.
    public func setExposureBias(millistops: Int64) {
        guard let control = info(.autoExposureBias) else { return missing(.autoExposureBias) }
        if control.type == .integerMenu {
            var best: (index: UInt32, distance: UInt64)?
            for item in menuItems(control) {
                guard let value = item.value else { continue }
                // |value − millistops| without overflow, whatever 64-bit value the driver reports.
                let distance = value >= millistops ? UInt64(bitPattern: value &- millistops)
                                                   : UInt64(bitPattern: millistops &- value)
                if best == nil || distance < best!.distance { best = (item.index, distance) }
            }
            if let best { set(.autoExposureBias, Int32(best.index)) }
        } else {
            set(.autoExposureBias, Int32(clamping: millistops))
        }
    }

    /// The menu items the driver offers for a menu control.
    private func menuIndices(_ control: V4L2ControlID) -> Set<UInt32> {
        guard let info = info(control) else { return [] }
        return Set(menuItems(info).map(\.index))
    }

    /// The most menu items read from one control: real menus have a handful, so a driver that reports a huge
    /// range is not asked millions of times.
    static let menuItemLimit: Int32 = 64

    /// The items of a menu or integer-menu control, asked index by index (`VIDIOC_QUERYMENU`; a driver may skip
    /// indices). Nothing for a range a driver got wrong (maximum below minimum, negative) or larger than
    /// `menuItemLimit` — a `UInt32(minimum)...UInt32(maximum)` range would trap or run for hours on those.
    private func menuItems(_ info: V4L2ControlInfo) -> [V4L2MenuItem] {
        guard info.type == .menu || info.type == .integerMenu, info.minimum >= 0, info.maximum >= info.minimum,
              info.maximum < Self.menuItemLimit else { return [] }
        return (UInt32(info.minimum)...UInt32(info.maximum)).compactMap {
            (try? device.queryMenu(id: info.id, index: $0)).flatMap { $0 }
        }
    }

    /// One `VIDIOC_S_CTRL`, clamped to the control's range; a missing control or a failure is a warning.
    private func set(_ control: V4L2ControlID, _ value: Int32) {
        guard let info = info(control) else { return missing(control) }
        let clamped = info.type == .integer ? info.clamp(value) : value
        if clamped != value {
            warn("\(cameraName): \(control) \(value) is outside \(info.minimum)…\(info.maximum); using \(clamped)")
        }
        do {
            try device.setControl(id: control.id, value: clamped)
        } catch {
            warnOnce(control, "\(cameraName): could not set \(control): \(error)")
        }
    }

    private func missing(_ control: V4L2ControlID) {
        warnOnce(control, "\(cameraName) has no \(control) control; the setting is ignored and recording goes on")
    }

    private func warnOnce(_ control: V4L2ControlID, _ text: String) {
        guard !warned.contains(control) else { return }
        warned.insert(control)
        warn(text)
    }
}
