import Foundation
import PauseCamCore

/// The real `UdevEventSource`: a udev monitor on `video4linux`, each event's device read into an identity by a
/// `UdevDeviceManager` (which opens the node for `VIDIOC_QUERYCAP`), and the manager's enumeration for recovery
/// after lost events. Handed to the watcher's thread at start and used there.
final class UdevMonitorSource: UdevEventSource {
    private let monitor: UdevMonitor
    private let manager: UdevDeviceManager

    /// Opens the monitor; throws `UdevError` when the netlink socket cannot be opened.
    init() throws {
        manager = try UdevDeviceManager()
        monitor = try UdevMonitor(context: UdevContext(), subsystem: "video4linux")
    }

    /// The monitor's socket, for the watcher's poll.
    var fileDescriptor: Int32 { monitor.fileDescriptor }

    func next() -> UdevSourceEvent {
        switch monitor.receive() {
        case .device(let device):
            let action = device.action ?? "change"
            guard let node = device.deviceNode ?? device.property("DEVNAME") else { return .ignored }
            let identity = action == "remove" ? manager.identityOfRemoved(device)
                                              : manager.identity(of: device, openNode: true)
            return .action(action, devicePath: node, identity: identity)
        case .drained: return .drained
        case .overflow: return .overflow
        case .failed: return .failed
        }
    }

    func cameras() throws -> [CameraIdentity] {
        try manager.cameras()
    }
}
