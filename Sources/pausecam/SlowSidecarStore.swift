import Foundation
import PauseCamCore

/// A sidecar store whose every write returns `delay` late, after the file is in place: a disk whose `fsync` takes
/// its time. `PAUSECAM_FAULT_SLOW_SIDECAR_MS` puts it in front of the real store, to show (and test) that nothing
/// ends the process while a sidecar is still being written or removed on the finisher's worker.
final class SlowSidecarStore: SidecarStore {
    private let store: any SidecarStore
    private let delay: MediaTime

    init(_ store: any SidecarStore, delay: MediaTime) {
        self.store = store
        self.delay = delay
    }

    func write(_ data: Data, to path: String) throws {
        try store.write(data, to: path)
        Thread.sleep(forTimeInterval: delay.seconds)
    }

    func writeNew(_ data: Data, stem: String, suffix: String) throws -> String {
        try store.writeNew(data, stem: stem, suffix: suffix)
    }

    func remove(_ path: String) { store.remove(path) }
}
