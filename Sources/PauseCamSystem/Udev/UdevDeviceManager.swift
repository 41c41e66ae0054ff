import Foundation
import PauseCamCore

/// Finds the cameras present now: enumerates `video4linux` with libudev, keeps capture nodes only (a UVC camera's
/// metadata node is never offered as a lens), and reads each camera's identity and, where the node opens, its
/// modes and controls. Each manager owns its own udev context, used by one thread at a time.
public final class UdevDeviceManager: Sendable {
    /// libudev's objects are not thread-safe: every enumeration holds this lock.
    private let context: Guarded<UdevContext>

    public init() throws {
        context = Guarded(try UdevContext())
    }

    /// The capture cameras, in node order.
    public func cameras() throws -> [CameraIdentity] {
        try context.withLock { context in
            try context.devices(subsystem: "video4linux").compactMap { identity(of: $0, openNode: true) }
        }
    }

    /// The capture cameras with their modes and controls, for `pausecam devices`.
    public func describeCameras() throws -> [CameraDescription] {
        try context.withLock { context in
            try context.devices(subsystem: "video4linux").compactMap { udevDevice in
                guard let identity = identity(of: udevDevice, openNode: true) else { return nil }
                let placement = UdevUSBTopology.placement(of: udevDevice)
                do {
                    let device = try V4L2DeviceNode(path: identity.devicePath, access: .kernel)
                    defer { device.close() }
                    let modes = (try? V4L2FormatCatalog.modes(of: device)) ?? []
                    let reader = V4L2Controls(device: device, cameraName: identity.devicePath) { _ in }
                    let controls = reader.available().map { (id: $0.0, info: $0.1, current: reader.current($0.0)) }
                    return CameraDescription(identity: identity, modes: modes, controls: controls,
                                             usbPlacement: placement)
                } catch {
                    return CameraDescription(identity: identity, problem: "\(error)", usbPlacement: placement)
                }
            }
        }
    }

    /// The identity of a `video4linux` device, or `nil` when it is not a capture node. With `openNode`, asks the
    /// node itself (`VIDIOC_QUERYCAP`) first; a node that cannot be opened falls back to udev's properties.
    func identity(of device: UdevDevice, openNode: Bool) -> CameraIdentity? {
        let properties = device.properties
        guard let node = device.deviceNode ?? properties["DEVNAME"] else { return nil }
        var capability: V4L2Capability?
        if openNode, let opened = try? V4L2DeviceNode(path: node, access: .kernel) {
            capability = try? opened.queryCapability()
            opened.close()
        }
        guard UdevIdentityReader.isCaptureNode(capabilitiesProperty: properties["ID_V4L_CAPABILITIES"],
                                               capability: capability) else { return nil }
        var usbAttributes: [String: String] = [:]
        if let usb = device.parent(subsystem: "usb", type: "usb_device") {
            for key in ["idVendor", "idProduct", "serial"] { usbAttributes[key] = usb.attribute(key) }
        }
        return UdevIdentityReader.identity(devicePath: node, properties: properties,
                                           nameAttribute: device.attribute("name"), usbAttributes: usbAttributes,
                                           capability: capability)
    }

    /// The identity carried by a removal event: properties only, the node and sysfs being gone.
    func identityOfRemoved(_ device: UdevDevice) -> CameraIdentity? {
        let properties = device.properties
        guard let node = device.deviceNode ?? properties["DEVNAME"],
              UdevIdentityReader.isCaptureNode(capabilitiesProperty: properties["ID_V4L_CAPABILITIES"],
                                               capability: nil) else { return nil }
        return UdevIdentityReader.identity(devicePath: node, properties: properties, nameAttribute: nil,
                                           usbAttributes: [:], capability: nil)
    }
}
