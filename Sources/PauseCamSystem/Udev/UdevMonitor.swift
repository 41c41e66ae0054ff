import CUdev
import Foundation

/// A udev monitor on the netlink socket, filtered to one subsystem: the source of hot-plug events. Owned by a
/// `UdevWatcher`, read from its thread only.
final class UdevMonitor: @unchecked Sendable {
    private let context: UdevContext
    private let handle: OpaquePointer

    /// Listens for events that udevd has finished processing (the "udev" netlink group), filtered by subsystem —
    /// tag filters are not used: they receive nothing under umockdev. The corresponding C functions are
    /// `udev_monitor_new_from_netlink`, `udev_monitor_filter_add_match_subsystem_devtype`,
    /// `udev_monitor_enable_receiving`.
    init(context: UdevContext, subsystem: String) throws {
        self.context = context
        guard let handle = udev_monitor_new_from_netlink(context.handle, "udev") else {
            throw UdevError(call: "udev_monitor_new_from_netlink(udev)", code: errno == 0 ? EPROTONOSUPPORT : errno)
        }
        self.handle = handle
        var code = udev_monitor_filter_add_match_subsystem_devtype(handle, subsystem, nil)
        if code < 0 {
            udev_monitor_unref(handle)
            throw UdevError(call: "udev_monitor_filter_add_match_subsystem_devtype(\(subsystem))", code: -code)
        }
        code = udev_monitor_enable_receiving(handle)
        if code < 0 {
            udev_monitor_unref(handle)
            throw UdevError(call: "udev_monitor_enable_receiving", code: -code)
        }
    }

    deinit { udev_monitor_unref(handle) }

    /// The socket to poll. The corresponding C function is `udev_monitor_get_fd`.
    var fileDescriptor: Int32 { udev_monitor_get_fd(handle) }

    /// The next event's device, or `nil` when none is ready. The corresponding C function is
    /// `udev_monitor_receive_device`.
    func receive() -> UdevDevice? {
        udev_monitor_receive_device(handle).map { UdevDevice(owning: $0) }
    }
}
