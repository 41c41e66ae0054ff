import CV4L2
import PauseCamCore

/// The V4L2 calls both node wrappers make the same way — the camera's `V4L2DeviceNode` and the webcam's
/// `V4L2LoopbackNode` — kept in one place.
enum V4L2Ioctl {
    /// Runs `request` on `argument` through descriptor `fd` (nil: the node is closed, `EBADF`), with libv4l2's
    /// `v4l2_ioctl` or the kernel's `ioctl`, EINTR retried. Returns nil on success, else the errno. The caller holds
    /// the lock that keeps `fd` open. The corresponding C function is `ioctl`.
    static func call(_ fd: Int32?, libv4l2: Bool, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Errno? {
        guard let fd else { return .badFileDescriptor }
        let result = retryingOnInterrupt {
            libv4l2 ? pausecam_v4l2_ioctl(fd, request, argument) : pausecam_ioctl(fd, request, argument)
        }
        if case .failure(let error) = result { return error }
        return nil
    }
}

extension V4L2Capability {
    /// What `VIDIOC_QUERYCAP` filled in: the names, and the node's own capabilities (`device_caps` when the driver
    /// sets `V4L2_CAP_DEVICE_CAPS`, else `capabilities`).
    init(_ cap: v4l2_capability) {
        let all = Flags(rawValue: cap.capabilities)
        self.init(driver: V4L2DeviceNode.string(cap.driver), card: V4L2DeviceNode.string(cap.card),
                  busInfo: V4L2DeviceNode.string(cap.bus_info),
                  nodeCapabilities: all.contains(.deviceCaps) ? Flags(rawValue: cap.device_caps) : all)
    }
}

extension v4l2_format {
    /// A `VIDIOC_S_FMT` request of buffer `type` (capture or output) for a progressive `pixelFormat` picture of
    /// `width`×`height`; the driver fills in the rest, or corrects what it does not take.
    static func progressive(type: UInt32, pixelFormat: V4L2PixelFormat, width: Int, height: Int) -> v4l2_format {
        var format = v4l2_format()
        format.type = type
        format.fmt.pix.pixelformat = pixelFormat.fourcc
        format.fmt.pix.width = UInt32(clamping: width)
        format.fmt.pix.height = UInt32(clamping: height)
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        return format
    }
}

extension V4L2NegotiatedFormat {
    /// What the driver answered to `VIDIOC_S_FMT`.
    init(_ format: v4l2_format) {
        let pix = format.fmt.pix
        self.init(pixelFormat: V4L2PixelFormat(fourcc: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
                  bytesPerLine: Int(pix.bytesperline), imageSize: Int(pix.sizeimage))
    }
}

extension v4l2_fract {
    /// A frame rate as V4L2's time per frame (seconds per frame: the rate's fraction upside down).
    init(timePerFrameOf rate: FrameRate) {
        self.init(numerator: UInt32(clamping: rate.denominator), denominator: UInt32(clamping: rate.numerator))
    }

    /// The frame rate of this time per frame; nil for a zero or out-of-range fraction (a driver's word is checked).
    var frameRate: FrameRate? {
        guard numerator > 0, denominator > 0, numerator <= UInt32(Int32.max), denominator <= UInt32(Int32.max)
        else { return nil }
        return FrameRate(Int32(denominator), Int32(numerator))
    }
}
