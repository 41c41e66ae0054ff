import CTimex

/// The kernel's own view of how good the system clock (`CLOCK_REALTIME`) is, as the NTP or PTP daemon disciplining
/// it (chronyd, ntpd, phc2sys) last told the kernel: read-only, with `adjtimex` in mode 0, which any user may call.
/// A group of hosts relies on this to know whether their clocks agree closely enough to share a frame grid.
public struct KernelClockStatus: Sendable, Equatable {
    /// The kernel's clock state is `TIME_ERROR` or its status has `STA_UNSYNC`: no daemon keeps the clock in step
    /// (or it gave up), so the clock may be off by any amount.
    public var unsynchronised: Bool
    /// The worst-case error the daemon allows for, in microseconds (`maxerror`; the kernel grows it by 500 ppm
    /// between updates and caps it at 16 s).
    public var maximumErrorMicroseconds: Int64
    /// The daemon's estimate of the error, in microseconds (`esterror`).
    public var estimatedErrorMicroseconds: Int64
    /// The remaining phase offset the kernel is slewing away, in nanoseconds (`offset`, in ns or µs by `STA_NANO`).
    public var offsetNanoseconds: Int64
    /// The raw status bits (`STA_*`), for a report.
    public var statusBits: Int32
    /// The clock state `adjtimex` returned (`TIME_OK` … `TIME_ERROR`).
    public var clockState: Int32

    public init(unsynchronised: Bool, maximumErrorMicroseconds: Int64, estimatedErrorMicroseconds: Int64,
                offsetNanoseconds: Int64, statusBits: Int32, clockState: Int32) {
        self.unsynchronised = unsynchronised
        self.maximumErrorMicroseconds = maximumErrorMicroseconds
        self.estimatedErrorMicroseconds = estimatedErrorMicroseconds
        self.offsetNanoseconds = offsetNanoseconds
        self.statusBits = statusBits
        self.clockState = clockState
    }

    /// `STA_UNSYNC`: the clock is not synchronised.
    public static let unsynchronisedBit = Int32(pausecam_sta_unsync)
    /// `STA_NANO`: `offset` is in nanoseconds, not microseconds.
    public static let nanosecondResolutionBit = Int32(pausecam_sta_nano)
    /// `TIME_ERROR`: the clock state of an unsynchronised clock.
    public static let timeErrorState = Int32(pausecam_time_error)

    /// Reads the kernel's clock status now; nil only if the kernel refuses the call (it does not for mode 0).
    /// The corresponding C function is `adjtimex`.
    public static func read() -> KernelClockStatus? {
        var reading = timex()
        reading.modes = 0
        let state = adjtimex(&reading)
        guard state >= 0 else { return nil }
        let status = Int32(reading.status)
        let offset = Int64(reading.offset)
        return KernelClockStatus(
            unsynchronised: state == timeErrorState || status & unsynchronisedBit != 0,
            maximumErrorMicroseconds: Int64(reading.maxerror),
            estimatedErrorMicroseconds: Int64(reading.esterror),
            offsetNanoseconds: status & nanosecondResolutionBit != 0 ? offset : offset * 1000,
            statusBits: status, clockState: state)
    }
}
