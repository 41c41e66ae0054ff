/// The mode a camera streams in, as far as the USB bus is concerned: its encoding, size and rate, and, when the
/// camera has said so, how many bytes it asks to move per service interval.
public struct USBStreamMode: Sendable, Equatable, CustomStringConvertible {
    /// How the picture crosses the bus.
    public enum Encoding: String, Sendable, Equatable {
        /// Uncompressed 4:2:2, two bytes a pixel: the bus carries every byte of every frame.
        case yuyv = "YUYV"
        /// Motion JPEG: each frame compressed by the camera.
        case mjpeg = "MJPEG"
    }

    /// Uncompressed or MJPEG: what decides how the share is reckoned.
    public var encoding: Encoding
    /// The frame's width in pixels.
    public var width: Int
    /// The frame's height in pixels.
    public var height: Int
    /// Frames per second, exact.
    public var rate: FrameRate
    /// The camera's UVC `dwMaxPayloadTransferSize` for this mode (bytes per service interval), when known: what it
    /// really reserves on the bus. Without it an MJPEG stream is estimated (see `USBBandwidthPlanner`).
    public var payloadBytesPerInterval: Int?

    public init(encoding: Encoding, width: Int, height: Int, rate: FrameRate, payloadBytesPerInterval: Int? = nil) {
        self.encoding = encoding
        self.width = width
        self.height = height
        self.rate = rate
        self.payloadBytesPerInterval = payloadBytesPerInterval
    }

    /// "YUYV 1280x720@30".
    public var description: String { "\(encoding.rawValue) \(width)x\(height)@\(rate)" }
}
