import PauseCamCore
@testable import PauseCamSystem

/// The tests' `SystemHooks` for a `CanvasScaler`: counts the JPEGs it decodes and the canvases it allocates.
final class CanvasCounter: SystemHooks {
    private struct Counts {
        var decodedJPEGs = 0
        var canvasesAllocated = 0
    }

    private let counts = Guarded(Counts())

    /// JPEGs decoded so far.
    var decodedJPEGs: Int { counts.withLock { $0.decodedJPEGs } }
    /// Canvas frames allocated so far.
    var canvasesAllocated: Int { counts.withLock { $0.canvasesAllocated } }

    func didDecodeJPEG() { counts.withLock { $0.decodedJPEGs += 1 } }
    func didAllocateCanvas() { counts.withLock { $0.canvasesAllocated += 1 } }
}
