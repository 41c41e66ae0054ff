import CV4L2
import PauseCamCore

/// The seam between the webcam output and the kernel: the few calls a v4l2loopback writer makes, so the format
/// set and the frames written can be checked against a fake device. `V4L2LoopbackNode` is the real one; its errors
/// are `V4L2Error`s naming the device node.
public protocol V4L2LoopbackDevice: AnyObject, Sendable {
    /// The device node, e.g. `/dev/video10`.
    var path: String { get }
    /// `VIDIOC_QUERYCAP`: the driver's name tells a loopback from a camera.
    func queryCapability() throws -> V4L2Capability
    /// `VIDIOC_S_FMT` for video output, progressive: what the readers of the device will see.
    func setOutputFormat(pixelFormat: V4L2PixelFormat, width: Int, height: Int) throws -> V4L2NegotiatedFormat
    /// `VIDIOC_S_PARM` for video output: the rate the readers are told; `nil` when the driver keeps its own.
    func setOutputFrameRate(_ rate: FrameRate) throws -> FrameRate?
    /// `write`: one whole picture in the format set (v4l2loopback takes one frame per write).
    func writeFrame(_ bytes: UnsafeRawBufferPointer) throws
    /// Closes the node; idempotent.
    func close()
}

extension V4L2Capability.Flags {
    /// `V4L2_CAP_VIDEO_OUTPUT`: the node takes pictures from an application (a loopback's writing side).
    public static let videoOutput = V4L2Capability.Flags(rawValue: UInt32(V4L2_CAP_VIDEO_OUTPUT))
}

extension V4L2Capability {
    /// True when the driver is v4l2loopback (its `driver` field is "v4l2 loopback").
    public var isLoopback: Bool { driver == "v4l2 loopback" }
    /// True when the node takes pictures from an application now (with `exclusive_caps=1`, a loopback stops
    /// saying so once another program writes to it).
    public var canOutput: Bool { nodeCapabilities.contains(.videoOutput) }
}
