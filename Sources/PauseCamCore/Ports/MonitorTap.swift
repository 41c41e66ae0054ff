/// Where the engine hands pictures to the live monitor (the browser page's program view and lens tiles).
///
/// The engine only offers: a device's delivery calls `offer` with every frame while `isWatched` is true, and the
/// serial context says which lens (and digital zoom) the program shows. The tap keeps the newest frame per lens and
/// makes its JPEGs on a worker of its own, so a slow or stalled viewer costs monitor frames, never movie frames,
/// and never holds a device thread or the serial context.
public protocol MonitorTap: AnyObject, Sendable {
    /// Whether anyone watches now: while false, `offer` is not called (one atomic read per frame).
    var isWatched: Bool { get }
    /// A lens's newest frame, from the device's thread; keeps a reference only, never blocks.
    func offer(_ frame: VideoFrame)
    /// The program shows `lens` with `digitalZoom` (1 for none) from now on; called on the serial context.
    func programChanged(lens: String, digitalZoom: Double)
}
