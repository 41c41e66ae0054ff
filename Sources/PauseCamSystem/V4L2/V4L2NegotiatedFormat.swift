/// What `VIDIOC_S_FMT` settled on: the driver may change the size or even the pixel format asked for.
public struct V4L2NegotiatedFormat: Sendable, Equatable {
    /// The format the driver will deliver.
    public var pixelFormat: V4L2PixelFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes per row of a packed format (0 for compressed ones).
    public var bytesPerLine: Int
    /// The largest buffer a frame can need.
    public var imageSize: Int

    public init(pixelFormat: V4L2PixelFormat, width: Int, height: Int, bytesPerLine: Int, imageSize: Int) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.imageSize = imageSize
    }
}
