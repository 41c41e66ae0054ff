import CUdev
import Foundation

/// A libudev context: the root every enumeration and monitor comes from. One per user of udev (the device manager,
/// the watcher); released on deinit.
public final class UdevContext {
    let handle: OpaquePointer

    /// The corresponding C function is `udev_new`.
    public init() throws {
        guard let handle = udev_new() else { throw UdevError.afterNull(call: "udev_new", unset: .noMemory) }
        self.handle = handle
    }

    deinit { udev_unref(handle) }

    /// Every device of `subsystem` present now, initialized by udev or not (so that a system without udevd, or a
    /// test sysfs, still lists its devices). The corresponding C functions are `udev_enumerate_new`,
    /// `udev_enumerate_add_match_subsystem`, `udev_enumerate_scan_devices`, `udev_device_new_from_syspath`.
    public func devices(subsystem: String) throws -> [UdevDevice] {
        guard let enumeration = udev_enumerate_new(handle) else {
            throw UdevError.afterNull(call: "udev_enumerate_new", unset: .noMemory)
        }
        defer { udev_enumerate_unref(enumeration) }
        var code = udev_enumerate_add_match_subsystem(enumeration, subsystem)
        if code < 0 { throw UdevError(call: "udev_enumerate_add_match_subsystem(\(subsystem))", code: -code) }
        code = udev_enumerate_scan_devices(enumeration)
        if code < 0 { throw UdevError(call: "udev_enumerate_scan_devices(\(subsystem))", code: -code) }
        var devices: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumeration)
        while let current = entry {
            if let path = udev_list_entry_get_name(current),
               let device = udev_device_new_from_syspath(handle, path) {
                devices.append(UdevDevice(owning: device))
            }
            entry = udev_list_entry_get_next(current)
        }
        return devices.sorted { $0.systemName.localizedStandardCompare($1.systemName) == .orderedAscending }
    }
}
