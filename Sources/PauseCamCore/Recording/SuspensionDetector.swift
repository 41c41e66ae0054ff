import Foundation

/// Notices that the process did not run: a periodic tick that comes much later than it was due means the whole
/// engine stood still — stopped with Ctrl-Z or SIGSTOP and continued with `fg`, or the machine asleep — since the
/// monotonic clock went on meanwhile. Frames dropped while catching up after such a gap are not the encoder's
/// fault, and the user is told what happened instead.
///
/// A value type fed with the clock's readings; it reads no clock itself.
public struct SuspensionDetector: Sendable, Equatable {
    /// How much later than due a tick must come to count as a suspension: well above any stall of the serial
    /// context (opening an encoder takes under a second even on a slow machine), well below a Ctrl-Z.
    public static let threshold = MediaTime.milliseconds(1500)

    private var lastTick: MediaTime?

    public init() {}

    /// A tick at `now` of a timer due every `interval`: returns how long the process stood still (the time beyond
    /// `interval` since the last tick) when that is over `threshold`, else nil. The first tick only starts counting.
    public mutating func tick(at now: MediaTime, interval: MediaTime) -> MediaTime? {
        defer { lastTick = now }
        guard let lastTick else { return nil }
        let late = now - lastTick - interval
        return late > Self.threshold ? late : nil
    }
}
