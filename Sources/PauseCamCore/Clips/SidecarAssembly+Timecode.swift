/// The timecode parts of a clip's sidecar: the movie's start label, each ISO's at its own rate, and each scene's
/// time of day, all from the clip's `TimecodeClock` and the capture instants the `ProgramTimeline` kept.
extension SidecarAssembly {
    /// The capture time of the movie's first frame; `nil` before it (or without a timeline).
    static func movieStartCapture(_ facts: Facts) -> MediaTime? {
        facts.timeline?.captureTime(ofMovieTime: .zero, discarded: facts.session.discardedSpans)
    }

    /// The timecode of a movie at `rate` that starts with the program's first frame; `nil` before that frame or
    /// without a timecode policy.
    static func timecode(_ facts: Facts, rate: FrameRate) -> Sidecar.Timecode? {
        guard let clock = facts.description.timecode, let capture = movieStartCapture(facts) else { return nil }
        return Sidecar.Timecode(startFrame: clock.startFrame(forCapture: capture, rate: rate), rate: rate,
                                from: clock.start)
    }

    /// The wall clock's time of day at movie time `start` (a scene's first frame), labelled at the movie's rate.
    static func timeOfDay(at start: MediaTime, _ facts: Facts) -> String? {
        let rate = facts.description.settings.rate
        guard let clock = facts.description.timecode,
              let capture = facts.timeline?.captureTime(ofMovieTime: start, discarded: facts.session.discardedSpans)
        else { return nil }
        return Timecode(rate: rate).string(forFrame: clock.timeOfDayFrame(forCapture: capture, rate: rate))
    }

    /// `iso`'s sidecar entry with its timecode.
    static func isoEntry(_ iso: IsoRecorder, _ facts: Facts) -> Sidecar.IsoMovie {
        var entry = isoEntry(iso)
        entry.timecode = timecode(facts, rate: iso.lens.rate)
        return entry
    }
}
