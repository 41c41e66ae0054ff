import Foundation

/// The webcam output could not start, or stopped: which device, what is wrong, and the command that fixes it.
/// The text is meant for the user as is (`pausecam run`, `check` and `doctor` print it).
public enum V4L2LoopbackError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The v4l2loopback module is not loaded (no `/sys/module/v4l2loopback`).
    case moduleNotLoaded
    /// No loopback device carries `label` (the labels present are listed).
    case noDeviceLabelled(String, present: [String])
    /// The device node does not exist.
    case noSuchDevice(String)
    /// The node is a video device, but not a loopback (a camera, say): PauseCam never writes to one.
    case notLoopback(device: String, driver: String, card: String)
    /// The loopback no longer takes a writer: another program already writes to it (with `exclusive_caps=1` it
    /// then offers capture only).
    case busy(device: String, card: String)
    /// The device asked for another picture than PauseCam writes (format or size).
    case formatRefused(device: String, wanted: String, got: String)
    /// A call on the device failed (opening it, setting its format, writing a frame).
    case device(V4L2Error)

    /// The command that loads the module, as the README gives it.
    public static let loadCommand =
        "sudo modprobe v4l2loopback devices=1 exclusive_caps=1 card_label=\"PauseCam\""
    /// The command that installs the module on Debian and Ubuntu.
    public static let installCommand = "sudo apt install v4l2loopback-dkms"

    public var description: String {
        switch self {
        case .moduleNotLoaded:
            return "the v4l2loopback kernel module is not loaded: load it with `\(Self.loadCommand)` "
                + "(install it first with `\(Self.installCommand)` if modprobe does not find it)"
        case .noDeviceLabelled(let label, let present):
            let list = present.isEmpty ? "none" : present.map { "\"\($0)\"" }.joined(separator: ", ")
            return "no v4l2loopback device is labelled \"\(label)\" (loopback labels present: \(list)); "
                + "load one with `sudo modprobe v4l2loopback devices=1 exclusive_caps=1 card_label=\"\(label)\"`"
        case .noSuchDevice(let device):
            return "\(device) does not exist: load the loopback module with `\(Self.loadCommand)` "
                + "(add `video_nr=N` for /dev/videoN), or name the device it made (`v4l2-ctl --list-devices`)"
        case .notLoopback(let device, let driver, let card):
            return "\(device) (\(card), driver \(driver)) is not a v4l2loopback device; PauseCam writes the webcam "
                + "only to a loopback device (`v4l2-ctl --list-devices` shows which node is one)"
        case .busy(let device, let card):
            let named = card.isEmpty ? device : "\(device) (\(card))"
            return "\(named) is busy: another program already writes to this loopback device; "
                + "stop it, or load a second device (`devices=2`)"
        case .formatRefused(let device, let wanted, let got):
            return "\(device) refused the picture \(wanted) (it offers \(got)); if another program set its format, "
                + "reload the module (`sudo modprobe -r v4l2loopback`, then `\(Self.loadCommand)`)"
        case .device(let error):
            return error.description
        }
    }

    /// True when the device went away (`ENODEV`): the module was unloaded or the device removed.
    public var isGone: Bool {
        if case .device(.unplugged) = self { return true }
        return false
    }
}
