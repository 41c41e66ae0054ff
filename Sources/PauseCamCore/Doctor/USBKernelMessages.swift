/// Sorts the kernel log's lines about USB trouble into kinds, for `pausecam doctor`: a camera that was reset,
/// refused bandwidth, or failed to enumerate leaves these lines (from `usbcore`, `xhci_hcd`, `uvcvideo`) whatever
/// program was using it, so they explain freezes and "No space left on device" that happened earlier.
public enum USBKernelMessages {
    /// A kind of USB trouble, with the lines that showed it.
    public enum Kind: String, Sendable, CaseIterable {
        /// `usb 1-1.2: reset high-speed USB device number 5 using xhci_hcd`: the host restarted a device that
        /// stopped answering (a freeze, a brown-out, a flaky cable).
        case reset
        /// `uvcvideo: Failed to submit URB 0 (-28)` or "not enough bandwidth": a stream was refused its share.
        case bandwidth
        /// `device descriptor read/64, error -71`, "unable to enumerate", "Cannot enable. Maybe the USB cable is
        /// bad?": a device that could not even be identified, usually the cable, the power or a hub.
        case enumeration
        /// `over-current condition`: a port's power was cut.
        case overCurrent
        /// `xHCI host controller not responding, assume dead`, `HC died`: the whole controller stopped.
        case controller
    }

    /// The kind of USB trouble `line` reports, or `nil` when it reports none.
    public static func kind(of line: String) -> Kind? {
        let text = line.lowercased()
        if text.contains("usb"), text.contains("reset"), text.contains("usb device") { return .reset }
        if text.contains("failed to submit urb") && text.contains("(-28)") || text.contains("not enough bandwidth") {
            return .bandwidth
        }
        if text.contains("device descriptor read") || text.contains("unable to enumerate usb device")
            || text.contains("maybe the usb cable is bad") || text.contains("device not accepting address") {
            return .enumeration
        }
        if text.contains("over-current") { return .overCurrent }
        if text.contains("host controller not responding") || text.contains("hc died") { return .controller }
        return nil
    }

    /// One finding per kind seen, in `Kind` order, each with its count and its last line; an `ok` finding when
    /// the log has none.
    public static func findings(in lines: [String]) -> [DoctorFinding] {
        var seen: [Kind: [String]] = [:]
        for line in lines {
            if let kind = kind(of: line) { seen[kind, default: []].append(line) }
        }
        guard !seen.isEmpty else {
            return [DoctorFinding(.ok, "no USB resets, bandwidth refusals or enumeration errors in the kernel log "
                                  + "(\(lines.count) lines)")]
        }
        return Kind.allCases.compactMap { kind in
            guard let found = seen[kind], let last = found.last else { return nil }
            let count = "\(found.count) time\(found.count == 1 ? "" : "s")"
            let quoted = "last: \"\(last.trimmingCharacters(in: .whitespaces))\""
            switch kind {
            case .reset:
                return DoctorFinding(.warning, "USB devices were reset \(count); \(quoted)",
                                     why: "the host resets a device that stopped answering: a camera that froze, "
                                         + "lost power for a moment, or sits on a flaky cable or hub",
                                     fixes: ["a shorter or better cable, a powered hub, or a port on the computer "
                                             + "itself for the camera on that port"])
            case .bandwidth:
                return DoctorFinding(.warning, "a USB stream was refused bandwidth \(count); \(quoted)",
                                     why: "the bus could not carry every camera at once (VIDIOC_STREAMON fails "
                                         + "with \"No space left on device\")",
                                     fixes: ["follow the USB bandwidth plan's fixes above (`format: mjpeg`, another "
                                             + "controller, `standby: cold`)"])
            case .enumeration:
                return DoctorFinding(.warning, "a USB device failed to enumerate \(count); \(quoted)",
                                     why: "a device that cannot be identified never gets a /dev/video node",
                                     fixes: ["another cable or port; a powered hub for bus-powered cameras"])
            case .overCurrent:
                return DoctorFinding(.warning, "a USB port reported over-current \(count); \(quoted)",
                                     why: "the port's power was cut, and every device behind it dropped",
                                     fixes: ["a powered hub, or fewer bus-powered devices on that port"])
            case .controller:
                return DoctorFinding(.warning, "a USB host controller died \(count); \(quoted)",
                                     why: "every device on that controller was lost until it was reset",
                                     fixes: ["update the kernel or the controller's firmware; move the cameras to "
                                             + "another controller"])
            }
        }
    }
}
