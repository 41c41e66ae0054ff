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

    /// What is wrong, and what to do about it, as one line.
    public var description: String {
        fixes.isEmpty ? problem : problem + ": " + fixes.joined(separator: "; or ")
    }

    /// What is wrong, in one line.
    public var problem: String {
        switch self {
        case .moduleNotLoaded:
            return "the v4l2loopback kernel module is not loaded"
        case .noDeviceLabelled(let label, let present):
            let list = present.isEmpty ? "none" : present.map { "\"\($0)\"" }.joined(separator: ", ")
            return "no v4l2loopback device is labelled \"\(label)\" (loopback labels present: \(list))"
        case .noSuchDevice(let device):
            return "\(device) does not exist"
        case .notLoopback(let device, let driver, let card):
            return "\(device) (\(card), driver \(driver)) is not a v4l2loopback device; PauseCam writes the webcam "
                + "only to a loopback device"
        case .busy(let device, let card):
            let named = card.isEmpty ? device : "\(device) (\(card))"
            return "\(named) is busy: another program already writes to this loopback device"
        case .formatRefused(let device, let wanted, let got):
            return "\(device) refused the picture \(wanted) (it offers \(got))"
        case .device(let error):
            return error.description
        }
    }

    /// What to do about it, most effective first; empty when there is nothing to run.
    public var fixes: [String] {
        switch self {
        case .moduleNotLoaded:
            return ["load it with `\(Self.loadCommand)` (install it first with `\(Self.installCommand)` "
                    + "if modprobe does not find it)"]
        case .noDeviceLabelled(let label, _):
            return ["load a device with that label: `sudo modprobe v4l2loopback devices=1 exclusive_caps=1 "
                    + "card_label=\"\(label)\"`", "or change the rig's `label:`"]
        case .noSuchDevice:
            return ["load the loopback module with `\(Self.loadCommand)` (add `video_nr=N` for /dev/videoN)",
                    "name the node it made (`v4l2-ctl --list-devices` lists them)"]
        case .notLoopback:
            return ["name the loopback's node (`v4l2-ctl --list-devices` shows which one is \"v4l2 loopback\")"]
        case .busy:
            return ["stop the other program that writes to it", "load a second device (`devices=2`)"]
        case .formatRefused:
            return ["if another program set its format, reload the module (`sudo modprobe -r v4l2loopback`, then "
                    + "`\(Self.loadCommand)`)"]
        case .device(let error):
            return error.isGone ? ["load the module again (`\(Self.loadCommand)`)"] : []
        }
    }

    /// True when the device went away (`ENODEV`): the module was unloaded or the device removed.
    public var isGone: Bool {
        if case .device(let error) = self { return error.isGone }
        return false
    }
}

extension V4L2Error {
    /// True for `ENODEV`: the device node's driver let go of it.
    var isGone: Bool {
        if case .unplugged = self { return true }
        return false
    }
}
