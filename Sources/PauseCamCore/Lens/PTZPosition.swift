/// Where a PTZ camera's motors stand, in the camera's own units (the `zoom_absolute`, `pan_absolute` and
/// `tilt_absolute` controls): a zoom preset's `optical:` and `ptz: {pan:, tilt:}`, the optical share of `zoom F`, a
/// step of a ramp, and the last position a lens's camera gets back when it opens again. An axis left `nil` is not
/// moved, so a preset that names only `optical:` keeps the camera pointing where it was.
public struct PTZPosition: Sendable, Equatable, CustomStringConvertible {
    /// `zoom_absolute`: optical zoom in the camera's units (UVC: focal length units, larger is closer).
    public var zoom: Int?
    /// `pan_absolute`: in arc seconds (UVC), negative to the left.
    public var pan: Int?
    /// `tilt_absolute`: in arc seconds (UVC), negative downwards.
    public var tilt: Int?

    public init(zoom: Int? = nil, pan: Int? = nil, tilt: Int? = nil) {
        self.zoom = zoom
        self.pan = pan
        self.tilt = tilt
    }

    /// True when no axis is named.
    public var isEmpty: Bool { zoom == nil && pan == nil && tilt == nil }

    /// This position with `newer`'s named axes over it: what a camera holds after `newer` was applied.
    public func updated(with newer: PTZPosition) -> PTZPosition {
        PTZPosition(zoom: newer.zoom ?? zoom, pan: newer.pan ?? pan, tilt: newer.tilt ?? tilt)
    }

    /// The value of one axis.
    public subscript(axis: PTZAxis) -> Int? {
        get {
            switch axis {
            case .zoom: return zoom
            case .pan: return pan
            case .tilt: return tilt
            }
        }
        set {
            switch axis {
            case .zoom: zoom = newValue
            case .pan: pan = newValue
            case .tilt: tilt = newValue
            }
        }
    }

    /// `zoom_absolute 200, pan_absolute -3600`: the named axes under their control names.
    public var description: String {
        PTZAxis.allCases.compactMap { axis in self[axis].map { "\(axis.controlName) \($0)" } }.joined(separator: ", ")
    }
}

/// One motor of a PTZ camera.
public enum PTZAxis: String, Sendable, Equatable, CaseIterable {
    case zoom, pan, tilt

    /// The control's name as `v4l2-ctl` and `pausecam devices` print it.
    public var controlName: String { "\(rawValue)_absolute" }

    /// The control PauseCam sets and reads back for this axis.
    public var control: CameraControlName {
        switch self {
        case .zoom: return .zoomAbsolute
        case .pan: return .panAbsolute
        case .tilt: return .tiltAbsolute
        }
    }
}
