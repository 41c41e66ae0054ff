import Foundation
import PauseCamCore
import PauseCamSystem

/// The sound card watcher of the composition root: its events go to the `DeviceHub`, which knows which card is
/// the rig's microphone and asks the `SystemDeviceOpener` to open a re-plugged one.
extension RigWiring {
    /// Watches sound cards, so a microphone unplugged mid-clip comes back when plugged in again (and one missing at
    /// the start is taken when it arrives).
    func startSoundWatcher() {
        guard watchesSoundCards else { return }
        do {
            let watcher = try UdevSoundWatcher()
            // Enumerating first: a card already here is not taken for a new one.
            _ = try watcher.enumerate()
            let devices = controller.devices
            try watcher.start { event in devices.handle(event) }
            soundWatcher.withLock { $0 = watcher }
        } catch {
            notify(.microphoneWatchNotStarted(reason: "\(error)"))
        }
    }
}
