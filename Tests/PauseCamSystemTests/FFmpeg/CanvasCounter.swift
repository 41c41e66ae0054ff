import PauseCamCore
@testable import PauseCamSystem

/// The tests' counting `SystemHooks`: the JPEGs a `CanvasScaler` decodes and the canvases it allocates, and the
/// rounds a `MonitorFeed`'s worker runs.
final class CanvasCounter: SystemHooks {
    private struct Counts {
        var decodedJPEGs = 0
        var canvasesAllocated = 0
        var monitorRounds = 0
    }

    private let counts = Guarded(Counts())

    /// JPEGs decoded so far.
    var decodedJPEGs: Int { counts.withLock { $0.decodedJPEGs } }
    /// Canvas frames allocated so far.
    var canvasesAllocated: Int { counts.withLock { $0.canvasesAllocated } }

    /// Monitor worker rounds run so far.
    var monitorRounds: Int { counts.withLock { $0.monitorRounds } }

    func didRunMonitorRound() { counts.withLock { $0.monitorRounds += 1 } }
    func didDecodeJPEG() { counts.withLock { $0.decodedJPEGs += 1 } }
    func didAllocateCanvas() { counts.withLock { $0.canvasesAllocated += 1 } }
}
