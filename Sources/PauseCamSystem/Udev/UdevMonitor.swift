import CUdev
import Foundation
import PauseCamCore

/// A udev monitor on the netlink socket, filtered to one subsystem: the source of hot-plug events. Made by a
/// watcher's `start`, then read from the watcher's thread. libudev's objects are not thread-safe, so every call on
/// the monitor is made under `libudev`: the hand-over between the two threads needs no promise.
final class UdevMonitor: Sendable {
    /// The monitor and the context it came from (kept alive with it).
    private struct Handles {
        let context: UdevContext
        let monitor: OpaquePointer
    }

    private let libudev: Guarded<Handles>
    /// The socket to poll, owned by the monitor (libudev closes it with the last unref), so a plain number that
    /// is valid while this object lives. The corresponding C function is `udev_monitor_get_fd`.
    let fileDescriptor: Int32

    /// Listens for events that udevd has finished processing (the "udev" netlink group), filtered by subsystem —
    /// tag filters are not used: they receive nothing under umockdev. The corresponding C functions are
    /// `udev_monitor_new_from_netlink`, `udev_monitor_filter_add_match_subsystem_devtype`,
    /// `udev_monitor_enable_receiving`. `enableReceiving` is that call, replaceable so tests can make it fail.
    init(context: sending UdevContext, subsystem: String,
         enableReceiving: (OpaquePointer) -> Int32 = { udev_monitor_enable_receiving($0) }) throws {
        // Built in a local and stored only on success: a failure unrefs it here, before `self` is fully
        // initialized, so `deinit` never unrefs it a second time.
        guard let handle = udev_monitor_new_from_netlink(context.handle, "udev") else {
            throw UdevError.afterNull(call: "udev_monitor_new_from_netlink(udev)",
                                      unset: Errno(rawValue: EPROTONOSUPPORT))
        }
        var code = udev_monitor_filter_add_match_subsystem_devtype(handle, subsystem, nil)
        if code < 0 {
            udev_monitor_unref(handle)
            throw UdevError(call: "udev_monitor_filter_add_match_subsystem_devtype(\(subsystem))", code: -code)
        }
        // A burst of events (a hub of cameras plugged at once, udevd replaying at boot) overflows the kernel's
        // default ~200 KiB socket buffer and events are dropped (ENOBUFS); a larger buffer makes that rare, and
        // the watcher re-enumerates when it happens anyway. Debian 12's libudev already asks for 128 MiB itself,
        // others do not; asking for less would shrink it. Unprivileged, the kernel caps the size at
        // net.core.rmem_max, so a failure here is not an error.
        _ = udev_monitor_set_receive_buffer_size(handle, Self.receiveBufferBytes)
        code = enableReceiving(handle)
        if code < 0 {
            udev_monitor_unref(handle)
            throw UdevError(call: "udev_monitor_enable_receiving", code: -code)
        }
        fileDescriptor = udev_monitor_get_fd(handle)
        libudev = Guarded(Handles(context: context, monitor: handle))
    }

    deinit { libudev.withLock { _ = udev_monitor_unref($0.monitor) } }

    /// The receive buffer asked for: 128 MiB, what udevd and Debian 12's libudev use. The corresponding C
    /// function is `udev_monitor_set_receive_buffer_size`.
    static let receiveBufferBytes: Int32 = 128 << 20

    /// The next event, or why there is none. `udev_monitor_receive_device` returns NULL with `errno` set: `EAGAIN`
    /// when nothing is ready, `ENOBUFS` when the kernel dropped events because the socket buffer was full.
    /// The corresponding C function is `udev_monitor_receive_device`.
    func receive() -> UdevReception {
        libudev.withLock { handles -> UdevReception in
            errno = 0
            if let device = udev_monitor_receive_device(handles.monitor) { return .device(UdevDevice(owning: device)) }
            let failure = Errno.current
            switch failure {
            case Errno(rawValue: ENOBUFS): return .overflow
            case Errno(rawValue: 0), .wouldBlock, .interrupted: return .drained
            default: return .failed(UdevError(call: "udev_monitor_receive_device", code: failure.rawValue))
            }
        }
    }
}
