import Glibc
import PauseCamCore

/// The seam between PauseCam's camera logic and the kernel: one method per V4L2 ioctl (or syscall), so format
/// choice, control mapping and the ENOSPC/ENODEV paths can be tested with a fake device. `V4L2DeviceNode` is the
/// real one. Errors thrown are `V4L2Error`s naming the device node.
public protocol V4L2Device: AnyObject, Sendable {
    /// The device node, e.g. `/dev/video0`.
    var path: String { get }
    /// `VIDIOC_QUERYCAP`.
    func queryCapability() throws -> V4L2Capability
    /// `VIDIOC_ENUM_FMT` for video capture; `nil` past the last format.
    func enumerateFormat(index: UInt32) throws -> V4L2FormatDescription?
    /// `VIDIOC_ENUM_FRAMESIZES`; `nil` past the last size.
    func enumerateFrameSize(pixelFormat: V4L2PixelFormat, index: UInt32) throws -> V4L2FrameSize?
    /// `VIDIOC_ENUM_FRAMEINTERVALS`; `nil` past the last interval.
    func enumerateFrameInterval(pixelFormat: V4L2PixelFormat, width: Int, height: Int,
                                index: UInt32) throws -> V4L2FrameInterval?
    /// `VIDIOC_S_FMT` for video capture, progressive.
    func setFormat(pixelFormat: V4L2PixelFormat, width: Int, height: Int) throws -> V4L2NegotiatedFormat
    /// `VIDIOC_S_PARM`: asks for a frame rate; returns what the driver chose, `nil` if it cannot set a rate.
    func setFrameRate(_ rate: FrameRate) throws -> FrameRate?
    /// `VIDIOC_QUERYCTRL` for one control ID; `nil` when the camera does not have it.
    func queryControl(id: UInt32) throws -> V4L2ControlInfo?
    /// `VIDIOC_QUERYMENU`; `nil` for an index the driver skips.
    func queryMenu(id: UInt32, index: UInt32) throws -> V4L2MenuItem?
    /// `VIDIOC_G_CTRL`.
    func getControl(id: UInt32) throws -> Int32
    /// `VIDIOC_S_CTRL`.
    func setControl(id: UInt32, value: Int32) throws
    /// `VIDIOC_QUERY_EXT_CTRL` for one control ID, for compound controls `VIDIOC_QUERYCTRL` cannot describe; `nil`
    /// when the camera does not have it.
    func queryExtendedControl(id: UInt32) throws -> V4L2ExtendedControlInfo?
    /// `VIDIOC_S_EXT_CTRLS` setting one rectangle control (`V4L2_CTRL_TYPE_RECT`) to `rectangle`.
    func setRectangleControl(id: UInt32, to rectangle: PixelRect) throws
    /// `VIDIOC_REQBUFS` with mmap memory; returns how many buffers the driver granted (0 frees them).
    func requestBuffers(count: UInt32) throws -> UInt32
    /// `VIDIOC_QUERYBUF` then `mmap` of that buffer; the device holds the mapping until `unmapBuffers`.
    func mapBuffer(index: UInt32) throws
    /// `munmap` of every mapped buffer.
    func unmapBuffers()
    /// `VIDIOC_QBUF`: hands an mmap buffer back to the driver.
    func queueBuffer(index: UInt32) throws
    /// `VIDIOC_DQBUF`; `nil` when no frame is ready (`EAGAIN`, the device is non-blocking).
    func dequeueBuffer() throws -> V4L2DequeuedBuffer?
    /// A copy of the first `count` bytes of a mapped buffer, taken before it is queued again.
    func bufferBytes(index: UInt32, count: Int) -> [UInt8]
    /// `VIDIOC_STREAMON`.
    func streamOn() throws
    /// `VIDIOC_STREAMOFF`: also returns every buffer to the application.
    func streamOff() throws
    /// `poll` for a frame; false on timeout.
    func waitForFrame(timeoutMilliseconds: Int32) throws -> Bool
    /// `v4l2_close`; idempotent.
    func close()
}

extension V4L2Device {
    /// No compound controls: the answer of a device (a stand-in for benchmarks or tests) that does not model them.
    public func queryExtendedControl(id: UInt32) throws -> V4L2ExtendedControlInfo? { nil }

    /// Refused as an unknown control (`EINVAL`), as a device without compound controls answers.
    public func setRectangleControl(id: UInt32, to rectangle: PixelRect) throws {
        throw V4L2Error.from(errno: EINVAL, device: path, call: "VIDIOC_S_EXT_CTRLS")
    }
}
