import PauseCamCore

/// A V4L2 camera's motors (`zoom_absolute`, `pan_absolute`, `tilt_absolute`) set by `VIDIOC_S_CTRL`. The device
/// is called directly, not through `V4L2Controls` (whose caches belong to the serial context): the ranges were read
/// when the camera opened and the values arrive already within them, so a move needs nothing else, and it runs on
/// the device worker.
extension V4L2Camera: CameraPTZ {
    public func movePTZ(to position: PTZPosition) throws {
        for axis in PTZAxis.allCases {
            guard let value = position[axis], ptzRanges[axis] != nil else { continue }
            try device.setControl(id: V4L2ControlID(axis).id, value: Int32(clamping: value))
        }
    }
}
