import Synchronization

/// How many frames a lens's cameras have delivered, counted on the capture thread before anything else happens to
/// a frame (the intake gate, the monitor): the freeze watchdog's evidence that a camera is alive, whether or not
/// a clip takes its frames. One per lens, kept across restarts and reopens of its camera.
final class FrameCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one delivered frame; from any thread.
    func add() {
        count.add(1, ordering: .relaxed)
    }

    /// The frames counted so far.
    var frames: Int { count.load(ordering: .relaxed) }
}
