/// Watches for cameras appearing and disappearing (udev in PauseCamSystem, a fake in tests).
public protocol DeviceWatcher: AnyObject {
    /// The cameras present now.
    func enumerate() throws -> [CameraIdentity]
    /// Starts delivering hot-plug events to `handler` from the watcher's own thread; idempotent.
    func start(_ handler: @escaping @Sendable (DeviceEvent) -> Void) throws
    /// Stops delivering; idempotent.
    func stop()
}

/// A camera appeared or disappeared.
public enum DeviceEvent: Sendable, Equatable {
    case attached(CameraIdentity)
    case detached(CameraIdentity)
}

/// Who a camera is, as far as rig matching cares: every property a `match` rule can name.
public struct CameraIdentity: Sendable, Equatable, Hashable {
    /// The device node, e.g. `/dev/video2`.
    public var devicePath: String
    /// V4L2 card name, e.g. "HD Pro Webcam C920".
    public var name: String
    /// V4L2 driver, e.g. "uvcvideo".
    public var driver: String?
    /// V4L2 bus info, e.g. "usb-0000:00:14.0-2".
    public var bus: String?
    /// udev `ID_SERIAL_SHORT` (or `ID_SERIAL`).
    public var serial: String?
    /// udev `ID_PATH`.
    public var path: String?
    /// USB vendor:product, lower-case hex, e.g. "046d:085b".
    public var usb: String?

    public init(devicePath: String, name: String, driver: String? = nil, bus: String? = nil, serial: String? = nil,
                path: String? = nil, usb: String? = nil) {
        self.devicePath = devicePath
        self.name = name
        self.driver = driver
        self.bus = bus
        self.serial = serial
        self.path = path
        self.usb = usb
    }
}

/// A sound card appeared or disappeared (udev's `sound` subsystem): how a microphone unplugged mid-clip is seen to
/// come back. Kept apart from `DeviceEvent` so the camera path does not hear of sound cards.
public enum SoundCardEvent: Sendable, Equatable {
    /// A card is present (plugged in, or its `change` once ALSA finished registering it): the identity it has.
    case added(MicrophoneIdentity)
    /// A card went away, with the identity it was announced with.
    case removed(MicrophoneIdentity)
}
