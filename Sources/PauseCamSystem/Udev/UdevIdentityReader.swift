import PauseCamCore

/// Builds a `CameraIdentity` from what udev and V4L2 say about a node — pure, so the rules are tested without a
/// device. V4L2's own answers (`VIDIOC_QUERYCAP`, when the node opens) win over udev's copies of them; udev's
/// properties fill in what only udev knows (serial, ID_PATH, USB IDs) and stand in when the node cannot be opened
/// or is already gone (a removal event).
public enum UdevIdentityReader {
    /// True when the node captures video: `QUERYCAP`'s node capabilities when known, else udev's
    /// `ID_V4L_CAPABILITIES` (set by `v4l_id`, e.g. ":capture:"). A node neither can vouch for is not offered.
    public static func isCaptureNode(capabilitiesProperty: String?, capability: V4L2Capability?) -> Bool {
        if let capability { return capability.canCapture }
        return capabilitiesProperty?.contains(":capture:") ?? false
    }

    /// The identity of the node at `devicePath`.
    /// - Parameters:
    ///   - properties: the udev properties (`ID_SERIAL_SHORT`, `ID_PATH`, `ID_VENDOR_ID`, `ID_V4L_PRODUCT`…).
    ///   - nameAttribute: the sysfs `name` attribute (the V4L2 card name), when the device is still there.
    ///   - usbAttributes: `idVendor`, `idProduct`, `serial` of the parent USB device, when there is one.
    ///   - capability: `VIDIOC_QUERYCAP`'s answer when the node opened.
    public static func identity(devicePath: String, properties: [String: String], nameAttribute: String?,
                                usbAttributes: [String: String], capability: V4L2Capability?) -> CameraIdentity {
        func nonEmpty(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            return value
        }
        let name = nonEmpty(capability?.card) ?? nonEmpty(nameAttribute) ?? nonEmpty(properties["ID_V4L_PRODUCT"])
            ?? nonEmpty(properties["ID_MODEL"]) ?? devicePath
        let serial = nonEmpty(properties["ID_SERIAL_SHORT"]) ?? nonEmpty(usbAttributes["serial"])
            ?? nonEmpty(properties["ID_SERIAL"])
        var usb: String?
        if let vendor = nonEmpty(properties["ID_VENDOR_ID"] ?? usbAttributes["idVendor"]),
           let product = nonEmpty(properties["ID_MODEL_ID"] ?? usbAttributes["idProduct"]) {
            usb = "\(vendor):\(product)".lowercased()
        }
        return CameraIdentity(devicePath: devicePath, name: name,
                              driver: nonEmpty(capability?.driver) ?? nonEmpty(properties["ID_USB_DRIVER"]),
                              bus: nonEmpty(capability?.busInfo), serial: serial,
                              path: nonEmpty(properties["ID_PATH"]), usb: usb)
    }
}
