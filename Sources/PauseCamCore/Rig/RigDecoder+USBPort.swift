/// A lens's `usb_port:`: where its camera sits on USB, for the bandwidth plan of a rig checked while the camera is
/// unplugged (a venue's rig prepared at home). `port` is the kernel's name of the device, `BUS-PORT[.PORT…]`, as
/// `lsusb -t`, `dmesg` and `pausecam devices` print it; `speed` the link's rate in Mbit/s (default 480, USB 2.0
/// high speed, what most webcams run at).
extension RigDecoder {
    /// The keys of a lens's `usb_port:`.
    enum USBPortKey: String, RigKey {
        case port, speed
    }

    mutating func usbPort(_ node: YAMLNode, _ path: KeyPath) -> USBPlacement? {
        guard let f = fields(node, path, USBPortKey.self, required: [.port]) else { return nil }
        var speed = USBSpeed.high
        if let n = f[.speed], let t = text(n, path.child(USBPortKey.speed)) {
            let written = t.hasSuffix("M") ? String(t.dropLast()) : t
            let streaming = USBSpeed.allCases.filter { $0 != .low }
            guard let s = USBSpeed(rawValue: written), s != .low else {
                report("\"\(t)\" is not a USB speed a camera streams at; write one of "
                       + streaming.map(\.rawValue).joined(separator: ", ") + " (Mbit/s, as `lsusb -t` prints them)",
                       at: n.mark, path: path.child(USBPortKey.speed))
                return nil
            }
            speed = s
        }
        guard let n = f[.port], let t = text(n, path.child(USBPortKey.port)) else { return nil }
        let halves = t.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let ports = halves.count == 2 ? halves[1].split(separator: ".", omittingEmptySubsequences: false) : []
        guard halves.count == 2, let bus = RigValueParser.integer(halves[0]), (1...999).contains(bus),
              !ports.isEmpty, ports.count <= 7,
              ports.allSatisfy({ RigValueParser.integer($0).map { (1...255).contains($0) } ?? false }) else {
            report("\"\(t)\" is not a USB port; write BUS-PORT as `lsusb -t` and `pausecam devices` show it, such "
                   + "as 1-2 or 3-1.4 (port 4 of the hub on port 1 of bus 3)", at: n.mark, path: path.child(USBPortKey.port))
            return nil
        }
        return USBPlacement(bus: bus, port: ports.joined(separator: "."), speed: speed, declared: true)
    }
}
