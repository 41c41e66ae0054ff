/// One entry of `VIDIOC_ENUM_FMT`: a pixel format the node offers.
public struct V4L2FormatDescription: Sendable, Equatable {
    /// The fourcc the node delivers.
    public var pixelFormat: V4L2PixelFormat
    /// The driver's text, e.g. "Motion-JPEG".
    public var description: String
    /// `V4L2_FMT_FLAG_EMULATED`: libv4l2 converts to this format in software; never preferred.
    public var emulated: Bool

    public init(pixelFormat: V4L2PixelFormat, description: String, emulated: Bool = false) {
        self.pixelFormat = pixelFormat
        self.description = description
        self.emulated = emulated
    }
}
