import CV4L2

/// What `VIDIOC_QUERYCAP` says about a device node: its names and what the node can do.
public struct V4L2Capability: Sendable, Equatable {
    /// `driver`, e.g. "uvcvideo".
    public var driver: String
    /// `card`, the camera's name, e.g. "HD Pro Webcam C920".
    public var card: String
    /// `bus_info`, e.g. "usb-0000:00:14.0-2".
    public var busInfo: String
    /// What this node can do: `device_caps` when the driver sets `V4L2_CAP_DEVICE_CAPS`, else `capabilities`
    /// (which describe the whole physical device, metadata node included).
    public var nodeCapabilities: Flags

    public init(driver: String, card: String, busInfo: String, nodeCapabilities: Flags) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.nodeCapabilities = nodeCapabilities
    }

    /// True when the node captures video: the only nodes offered as lenses.
    public var canCapture: Bool { nodeCapabilities.contains(.videoCapture) }

    /// `V4L2_CAP_*` bits.
    public struct Flags: OptionSet, Sendable, Hashable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `V4L2_CAP_VIDEO_CAPTURE`.
        public static let videoCapture = Flags(rawValue: UInt32(V4L2_CAP_VIDEO_CAPTURE))
        /// `V4L2_CAP_STREAMING`: mmap/userptr streaming I/O.
        public static let streaming = Flags(rawValue: UInt32(V4L2_CAP_STREAMING))
        /// `V4L2_CAP_META_CAPTURE`: a metadata node (UVC's second node per camera).
        public static let metaCapture = Flags(rawValue: UInt32(V4L2_CAP_META_CAPTURE))
        /// `V4L2_CAP_DEVICE_CAPS`: `device_caps` is filled in.
        public static let deviceCaps = Flags(rawValue: UInt32(V4L2_CAP_DEVICE_CAPS))
    }
}
