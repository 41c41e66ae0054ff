import CUdev

/// One udev device (a sysfs entry with its udev properties), from an enumeration or a monitor event. Holds a
/// reference on the `udev_device` and drops it on deinit; use it on one thread.
public final class UdevDevice {
    let handle: OpaquePointer

    /// Takes over a reference the caller already owns.
    init(owning handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { udev_device_unref(handle) }

    /// The device node, e.g. `/dev/video0`. The corresponding C function is `udev_device_get_devnode`.
    public var deviceNode: String? { udev_device_get_devnode(handle).map { String(cString: $0) } }
    /// The kernel name, e.g. `video0`. The corresponding C function is `udev_device_get_sysname`.
    public var systemName: String { udev_device_get_sysname(handle).map { String(cString: $0) } ?? "" }
    /// The sysfs path. The corresponding C function is `udev_device_get_syspath`.
    public var systemPath: String { udev_device_get_syspath(handle).map { String(cString: $0) } ?? "" }
    /// `add`, `remove`, `change`… for a monitor event; `nil` for an enumerated device. The corresponding C
    /// function is `udev_device_get_action`.
    public var action: String? { udev_device_get_action(handle).map { String(cString: $0) } }

    /// One udev property (`ID_SERIAL_SHORT`, `DEVNAME`…). The corresponding C function is
    /// `udev_device_get_property_value`.
    public func property(_ key: String) -> String? {
        udev_device_get_property_value(handle, key).map { String(cString: $0) }
    }

    /// Every udev property: what a removal event still carries when sysfs attributes are gone. The corresponding
    /// C function is `udev_device_get_properties_list_entry`.
    public var properties: [String: String] {
        var result: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(handle)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                result[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        return result
    }

    /// A sysfs attribute (`name`, `idVendor`…), trailing whitespace removed. The corresponding C function is
    /// `udev_device_get_sysattr_value`.
    public func attribute(_ name: String) -> String? {
        udev_device_get_sysattr_value(handle, name).map {
            String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// The nearest ancestor in `subsystem` (of `type`), e.g. the `usb`/`usb_device` a webcam hangs off. The
    /// corresponding C function is `udev_device_get_parent_with_subsystem_devtype`.
    public func parent(subsystem: String, type: String?) -> UdevDevice? {
        guard let parent = udev_device_get_parent_with_subsystem_devtype(handle, subsystem, type) else { return nil }
        // The parent belongs to the child; take our own reference so it may outlive this object.
        return UdevDevice(owning: udev_device_ref(parent))
    }
}
