import Foundation

/// The text of the one-line progress display a long simulated script or a long `wait` shows on a terminal, like
/// ffmpeg's `time=… speed=…`: movie time, scripted time left and speed (session seconds per real second).
///
/// Pure: the real clock is injected (monotonic in the composition root, a manual clock in tests), and the caller
/// writes the text where it wants (`\r`, cleared at the end). It also decides how often a new text is worth
/// drawing, so a fast simulated run does not flood the terminal.
public struct ProgressLine {
    private let realClock: any Clock
    /// The least real time between two drawn texts.
    public let interval: MediaTime
    /// The session and real times of the first update since `reset()`: what speed is measured from.
    private var origin: (session: MediaTime, real: MediaTime)?
    private var lastDrawn: MediaTime?

    public init(realClock: any Clock, interval: MediaTime = .milliseconds(200)) {
        self.realClock = realClock
        self.interval = interval
    }

    /// Forgets the measurement: the next update starts a new line (a new `wait`).
    public mutating func reset() {
        origin = nil
        lastDrawn = nil
    }

    /// The text to draw for `progress`, or `nil` when the last one was drawn less than `interval` ago.
    public mutating func text(for progress: WaitProgress) -> String? {
        let real = realClock.now()
        guard let origin else {
            self.origin = (progress.sessionTime, real)
            lastDrawn = real
            return Self.format(progress, speed: nil)
        }
        if let lastDrawn, real < lastDrawn + interval { return nil }
        lastDrawn = real
        let realElapsed = real - origin.real
        let sessionElapsed = progress.sessionTime - origin.session
        let speed = realElapsed > .zero ? sessionElapsed.seconds / realElapsed.seconds : nil
        return Self.format(progress, speed: speed)
    }

    /// `movie 00:01:23.4 · script left 00:00:36.6 · speed 12.3x` (`speed …` until it can be measured).
    public static func format(_ progress: WaitProgress, speed: Double?) -> String {
        let speedText = speed.map { String(format: "%.1fx", $0) } ?? "…"
        return "movie \(DurationParser.clockString(progress.movieTime))"
            + " · script left \(DurationParser.clockString(progress.scriptedTimeLeft))"
            + " · speed \(speedText)"
    }
}
