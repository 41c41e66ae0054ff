import Foundation

/// The rate a recording clip fills the disk at, measured from the sizes of the files it writes (the movie's
/// `.partial`, every ISO's, every voice's WAV) at each health round.
///
/// Only stretches recorded from one round to the next count: a pause writes (almost) nothing, and a rate that
/// counted it would promise hours that recording again would not have. The rate is over the last `window` of such
/// stretches, so it follows a change of picture (a busy scene costs x264 more bytes at the same `crf`) within a
/// minute, and it is unknown until `minimumSpan` has been measured. A value type: the controller keeps it and feeds
/// it; nothing here reads a clock or a file.
public struct DataRateMeter: Sendable, Equatable {
    /// How much recording the rate is taken over (the newest stretches).
    public static let window = MediaTime.seconds(30)
    /// How much recording must be measured before the rate is known: one stretch of a 2 s health round's length.
    public static let minimumSpan = MediaTime.seconds(2)

    /// One measured stretch: how long it lasted and what the files grew by.
    struct Stretch: Sendable, Equatable {
        var duration: MediaTime
        var bytes: Int64
    }

    private var stretches: [Stretch] = []
    private var measured = MediaTime.zero
    private var grown: Int64 = 0
    /// The previous sample, while recording went on since it.
    private var last: (time: MediaTime, bytes: Int64)?

    public init() {}

    public static func == (a: DataRateMeter, b: DataRateMeter) -> Bool {
        a.stretches == b.stretches && a.last?.time == b.last?.time && a.last?.bytes == b.last?.bytes
    }

    /// The clip's files held `bytes` together at clock time `time`; `recording` is false while the clip is paused
    /// (then the stretch up to here is not counted, and the next one starts at the next recording sample). Files
    /// that shrank (cut back after a failed write) count as no growth; a time not after the last is ignored.
    public mutating func sample(bytes: Int64, at time: MediaTime, recording: Bool) {
        guard recording else {
            last = nil
            return
        }
        guard let previous = last else {
            last = (time, bytes)
            return
        }
        guard previous.time < time else { return }
        last = (time, bytes)
        let stretch = Stretch(duration: time - previous.time, bytes: bytes > previous.bytes ? bytes &- previous.bytes : 0)
        stretches.append(stretch)
        measured = measured + stretch.duration
        grown = grown.addingReportingOverflow(stretch.bytes).overflow ? Int64.max : grown + stretch.bytes
        while let first = stretches.first, stretches.count > 1, measured - first.duration >= Self.window {
            stretches.removeFirst()
            measured = measured - first.duration
            grown -= first.bytes
        }
    }

    /// Bytes a second over the newest stretches; `nil` until `minimumSpan` of recording was measured.
    public var bytesPerSecond: Double? {
        guard measured >= Self.minimumSpan, measured.seconds > 0 else { return nil }
        return Double(grown) / measured.seconds
    }
}
