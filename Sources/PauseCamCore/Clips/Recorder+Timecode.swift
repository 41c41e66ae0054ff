/// The timecode of the clip being recorded, for `status`.
extension Recorder {
    /// The label of the movie's frame at the timer now: the first frame's label plus the frames since (the movie's
    /// timecode runs on through pauses, so while paused it stays at the pause). `nil` before the first frame or
    /// without a timecode policy.
    public var currentTimecode: String? {
        let rate = description.settings.rate
        guard let clock = description.timecode,
              let capture = timeline.captureTime(ofMovieTime: .zero, discarded: session.discardedSpans)
        else { return nil }
        let ticks = (try? session.timer.rescaled(to: rate.numerator, rounding: .down).value) ?? 0
        let frames = max(0, ticks / Int64(rate.denominator))
        return Timecode(rate: rate).string(forFrame: clock.startFrame(forCapture: capture, rate: rate) &+ frames)
    }
}
