import Foundation
import PauseCamCore

/// Where cameras sit on USB, read from sysfs through libudev: a video node's nearest `usb_device` ancestor says its
/// bus (`busnum`), its port path (`devpath`), the speed it runs at (`speed`) and the USB version it implements
/// (`version`, its `bcdUSB`); the root hubs (`usbN`) say which buses exist, their speed and their host controller.
/// What `USBBandwidthPlanner` plans with.
public enum UdevUSBTopology {
    /// The place of the camera whose `video4linux` device is `device`; `nil` when it is not on USB (a capture card,
    /// vivid) or sysfs lacks the attributes.
    static func placement(of device: UdevDevice) -> USBPlacement? {
        guard let usb = device.parent(subsystem: "usb", type: "usb_device") else { return nil }
        var attributes: [String: String] = [:]
        for key in ["busnum", "devpath", "speed", "version"] { attributes[key] = usb.attribute(key) }
        return placement(attributes: attributes)
    }

    /// The place a USB device's sysfs attributes describe (`busnum`, `devpath`, `speed`, `version`); `nil` when
    /// one of the first three is missing or unreadable.
    public static func placement(attributes: [String: String]) -> USBPlacement? {
        guard let bus = attributes["busnum"].flatMap({ Int($0) }),
              let port = attributes["devpath"], !port.isEmpty,
              let speed = attributes["speed"].flatMap(USBSpeed.init(sysfs:)) else { return nil }
        let version = attributes["version"].flatMap { $0.isEmpty ? nil : $0 }
        return USBPlacement(bus: bus, port: port, speed: speed, version: version)
    }

    /// Every USB bus present: the root hubs (`usbN` in the `usb` subsystem) with their speed and controller, by
    /// number. The controller is the root hub's parent in sysfs (a PCI address such as `0000:00:14.0`).
    public static func buses() throws -> [USBBus] {
        try UdevContext().devices(subsystem: "usb").compactMap { device in
            let name = device.systemName
            guard name.hasPrefix("usb"), let number = Int(name.dropFirst(3)),
                  let speed = device.attribute("speed").flatMap(USBSpeed.init(sysfs:)) else { return nil }
            let parent = URL(fileURLWithPath: device.systemPath).deletingLastPathComponent().lastPathComponent
            return USBBus(number: device.attribute("busnum").flatMap { Int($0) } ?? number, speed: speed,
                          controller: parent == "devices" || parent.isEmpty ? nil : parent)
        }.sorted { $0.number < $1.number }
    }
}
