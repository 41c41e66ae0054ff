/// What the kernel says of the system clock's synchronisation (`adjtimex`: PauseCamSystem's `KernelClockStatus`
/// reads it), handed to Core as plain values by the composition root.
public struct ClockSynchronisation: Sendable, Equatable {
    /// `STA_UNSYNC`: no time service has disciplined the clock (or it gave up); the clock's error is unknown.
    public var unsynchronised: Bool
    /// `maxerror`: the largest error the kernel allows for, microseconds.
    public var maximumErrorMicroseconds: Int64
    /// `esterror`: the estimated error, microseconds.
    public var estimatedErrorMicroseconds: Int64

    public init(unsynchronised: Bool, maximumErrorMicroseconds: Int64, estimatedErrorMicroseconds: Int64) {
        self.unsynchronised = unsynchronised
        self.maximumErrorMicroseconds = maximumErrorMicroseconds
        self.estimatedErrorMicroseconds = estimatedErrorMicroseconds
    }
}
