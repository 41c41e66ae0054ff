#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// `CLOCK_MONOTONIC`, the clock V4L2 buffer timestamps and ALSA htstamps are on, as exact nanoseconds.
public final class MonotonicClock: Clock {
    public init() {}

    /// The clock's time now, as the `Clock` the core is handed.
    public func now() -> MediaTime { Self.now() }

    /// The one reading of `CLOCK_MONOTONIC` in PauseCam, also for devices that stamp a sample themselves when
    /// their driver gives no monotonic timestamp. The corresponding C function is `clock_gettime`.
    public static func now() -> MediaTime {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MediaTime.timespec(seconds: Int64(ts.tv_sec), nanoseconds: Int64(ts.tv_nsec)) ?? .zero
    }
}
