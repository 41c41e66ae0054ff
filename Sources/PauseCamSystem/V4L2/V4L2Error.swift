import Foundation
import PauseCamCore

/// A V4L2 camera failed: which device node, which call, and what the user can do about it. Owned by whoever
/// catches it; the text is meant for the user as is.
public enum V4L2Error: Error, CustomStringConvertible, Sendable, Equatable {
    /// A call (`open`, `VIDIOC_*`, `mmap`, `poll`) failed with an errno not handled more specifically.
    case call(device: String, call: String, errno: Int32)
    /// `VIDIOC_STREAMON` failed with `ENOSPC`: the USB controller has no isochronous bandwidth left for this stream.
    case bandwidthExhausted(device: String)
    /// The device is gone (`ENODEV`): unplugged.
    case unplugged(device: String, call: String)
    /// The node cannot capture video (a UVC metadata node, an output device).
    case notCapture(device: String, card: String)
    /// None of the formats the camera offers fits the lens's request.
    case noUsableFormat(device: String, wanted: String, offered: String)

    /// Turns an errno from `call` on `device` into the most helpful case.
    public static func from(errno code: Int32, device: String, call: String) -> V4L2Error {
        if code == ENODEV { return .unplugged(device: device, call: call) }
        if code == ENOSPC && call == "VIDIOC_STREAMON" { return .bandwidthExhausted(device: device) }
        return .call(device: device, call: call, errno: code)
    }

    /// Turns the `Errno` a wrapped call failed with into the most helpful case.
    static func from(_ failure: Errno, device: String, call: String) -> V4L2Error {
        from(errno: failure.rawValue, device: device, call: call)
    }

    public var description: String {
        switch self {
        case .call(let device, let call, let code):
            var text = "\(device): \(call) failed: \(Errno(rawValue: code).message) (errno \(code))"
            if code == EACCES || code == EPERM {
                text += "; check `ls -l \(device)` and that you are in the `video` group (`id -nG`)"
            } else if code == EBUSY {
                text += "; another program is using the camera"
            }
            return text
        case .bandwidthExhausted(let device):
            return "\(device): cannot start streaming: USB bandwidth is exhausted (VIDIOC_STREAMON: ENOSPC). "
                + "Several cameras share one USB controller; use format: mjpeg for this lens, or a lower size "
                + "or frame rate, or plug the camera into another controller."
        case .unplugged(let device, let call):
            return "\(device): the camera was unplugged (\(call): ENODEV)"
        case .notCapture(let device, let card):
            return "\(device) (\(card)) is not a video capture node (it may be a UVC metadata node); "
                + "use the camera's capture node instead"
        case .noUsableFormat(let device, let wanted, let offered):
            return "\(device): the camera offers no \(wanted) format (it offers: \(offered))"
        }
    }
}

extension V4L2Error: CameraStartFailure {
    /// True for `bandwidthExhausted` (`VIDIOC_STREAMON`: `ENOSPC`): the engine may stop another camera on the bus
    /// and try again.
    public var isBandwidthExhausted: Bool {
        if case .bandwidthExhausted = self { return true }
        return false
    }
}
