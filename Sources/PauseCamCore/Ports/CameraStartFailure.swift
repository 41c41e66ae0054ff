/// An error a camera's `start` throws that says more than its words: what the engine may do about it. A camera
/// whose errors conform (V4L2's `V4L2Error`, the virtual rig's simulated bus) lets the `DeviceHub` tell a start
/// refused for lack of USB bandwidth from any other failure, without reading the message.
public protocol CameraStartFailure: Error {
    /// True when the camera's USB bus has no periodic bandwidth left for its stream (V4L2: `VIDIOC_STREAMON`
    /// failed with `ENOSPC`): stopping another camera on the same bus can make room, and a retry may then succeed.
    var isBandwidthExhausted: Bool { get }
}
