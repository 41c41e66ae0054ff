import PauseCamCore

/// One way a camera can stream: a pixel format at one size, with the rates offered at that size. Built by
/// `V4L2FormatCatalog` from the three ENUM ioctls; consumed by `V4L2FormatChooser` and `pausecam devices`.
public struct V4L2Mode: Sendable, Equatable {
    /// The fourcc of this mode.
    public var pixelFormat: V4L2PixelFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Fastest first.
    public var rates: [FrameRate]
    /// libv4l2 makes this format in software.
    public var emulated: Bool

    public init(pixelFormat: V4L2PixelFormat, width: Int, height: Int, rates: [FrameRate], emulated: Bool = false) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.rates = rates
        self.emulated = emulated
    }
}
