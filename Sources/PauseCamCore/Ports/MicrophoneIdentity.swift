/// One sound card found through udev's `sound` subsystem, with what a rig's `audio: {match: …}` compares and the
/// ALSA PCM name that opens it. Card numbers change with the order cards are plugged in; these properties do not.
public struct MicrophoneIdentity: Sendable, Equatable, Hashable {
    /// The ALSA card number (`cardN` in sysfs).
    public var card: Int
    /// The card's name: udev `ID_MODEL`, else the sysfs `id` attribute (e.g. "C920").
    public var name: String
    /// udev `ID_SERIAL_SHORT` or the USB device's `serial`.
    public var serial: String?
    /// udev `ID_PATH`.
    public var path: String?
    /// USB vendor:product, lower-case hex.
    public var usb: String?
    /// The sysfs path of the USB device the card belongs to: a webcam's microphone shares it with the camera.
    public var usbDevicePath: String?

    public init(card: Int, name: String, serial: String? = nil, path: String? = nil, usb: String? = nil,
                usbDevicePath: String? = nil) {
        self.card = card
        self.name = name
        self.serial = serial
        self.path = path
        self.usb = usb
        self.usbDevicePath = usbDevicePath
    }

    /// The PCM that opens the card's first capture device with ALSA's conversions (any rate, format, channels).
    public var pcmName: String { "plughw:\(card),0" }

    /// True when `rule` (a lens-style match rule) picks this card: `usb`, `serial`, `path` exact (USB ids
    /// regardless of case), `name` a case-insensitive substring, `device` the PCM or `hw:N` name; `bus` never.
    public func matches(_ rule: Rig.MatchRule) -> Bool {
        switch rule {
        case .serial(let s): return serial == s
        case .path(let p): return path == p
        case .name(let n): return name.lowercased().contains(n.lowercased())
        case .usb(let u): return usb?.lowercased() == u.lowercased()
        case .device(let d): return d == pcmName || d == "hw:\(card)" || d == "hw:\(card),0"
        case .bus: return false
        }
    }
}
