/// Where one camera sits on USB: which bus (root hub, `usbN`), which port path on it, and the speed the camera
/// runs at there. Read from sysfs for a connected camera (`busnum`, `devpath`, `speed`, `version`), or declared by a
/// lens's `usb_port:` for a camera that is not plugged in while the rig is planned.
public struct USBPlacement: Sendable, Equatable {
    /// The bus number (`busnum`): the `N` of root hub `usbN`.
    public var bus: Int
    /// The port path from the root hub (`devpath`), e.g. "1.2": port 2 of the hub on the root hub's port 1.
    public var port: String
    /// The speed the camera runs at here: the slowest link on its way to the root hub decides it.
    public var speed: USBSpeed
    /// The USB version the camera itself implements (`bcdUSB`, sysfs `version`, e.g. "3.20"), when known: a USB 3
    /// camera running at high speed is on a USB 2 port, hub or cable.
    public var version: String?
    /// True when the rig declared this place (`usb_port:`) rather than sysfs reporting it.
    public var declared: Bool

    public init(bus: Int, port: String, speed: USBSpeed, version: String? = nil, declared: Bool = false) {
        self.bus = bus
        self.port = port
        self.speed = speed
        self.version = version
        self.declared = declared
    }

    /// The kernel's name of the device, "BUS-PORT" (`1-1.2`), as `lsusb -t`, `dmesg` and sysfs write it.
    public var name: String { "\(bus)-\(port)" }

    /// True when the camera can do SuperSpeed (its `bcdUSB` is 3.0 or more) but runs slower here.
    public var isSuperSpeedCameraOnSlowerLink: Bool {
        guard let version, let major = Int(version.split(separator: ".").first ?? "") else { return false }
        return major >= 3 && !speed.isSuperSpeed
    }
}
