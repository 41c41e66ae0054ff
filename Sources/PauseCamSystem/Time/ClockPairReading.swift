#if canImport(Glibc)
import Glibc
#endif

/// The shared clock (`CLOCK_REALTIME`, which PTP or NTP keeps in step across the group's hosts) and the capture
/// clock (`CLOCK_MONOTONIC`, on which cameras and sound cards stamp their samples) read at one instant, so a time on
/// one can be mapped onto the other. The two cannot be read at once: the monotonic clock is read before and after
/// the real-time one, and `monotonicNanoseconds` is the middle of that bracket, off by at most half of it.
public struct ClockPairReading: Sendable, Equatable {
    /// `CLOCK_REALTIME`, nanoseconds since 1970.
    public var realtimeNanoseconds: Int64
    /// `CLOCK_MONOTONIC` at the same instant, nanoseconds.
    public var monotonicNanoseconds: Int64
    /// How far apart the two monotonic readings around the real-time one were, in nanoseconds: the pairing's
    /// uncertainty (twice its worst error).
    public var bracketNanoseconds: Int64

    public init(realtimeNanoseconds: Int64, monotonicNanoseconds: Int64, bracketNanoseconds: Int64) {
        self.realtimeNanoseconds = realtimeNanoseconds
        self.monotonicNanoseconds = monotonicNanoseconds
        self.bracketNanoseconds = bracketNanoseconds
    }

    /// Reads the pair `tries` times in a row and keeps the tightest bracket: a reading the scheduler interrupted
    /// has a wide bracket and loses. The corresponding C function is `clock_gettime`.
    public static func read(tries: Int = 3) -> ClockPairReading {
        tightest((0..<max(1, tries)).map { _ in
            let before = nanoseconds(CLOCK_MONOTONIC)
            let realtime = nanoseconds(CLOCK_REALTIME)
            let after = nanoseconds(CLOCK_MONOTONIC)
            return ClockPairReading(realtimeNanoseconds: realtime, monotonicNanoseconds: before + (after - before) / 2,
                                    bracketNanoseconds: after - before)
        })
    }

    /// The reading with the smallest bracket (the first of equals). `readings` is not empty.
    static func tightest(_ readings: [ClockPairReading]) -> ClockPairReading {
        readings.dropFirst().reduce(readings[0]) { $1.bracketNanoseconds < $0.bracketNanoseconds ? $1 : $0 }
    }

    private static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
