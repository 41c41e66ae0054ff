import PauseCamCore

/// The mode `V4L2FormatChooser` picked: what to ask `VIDIOC_S_FMT` and `VIDIOC_S_PARM` for.
public struct V4L2FormatChoice: Sendable, Equatable {
    /// The format to ask `VIDIOC_S_FMT` for.
    public var pixelFormat: V4L2PixelFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `nil` when the driver lists no rates for the size (the camera then runs at its own rate).
    public var rate: FrameRate?

    public init(pixelFormat: V4L2PixelFormat, width: Int, height: Int, rate: FrameRate?) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.rate = rate
    }
}
