/// The shared clock and the capture clock read together, by the caller, as close in time as it can: the only way
/// Core learns what time it is on either (it reads no clock itself). In the product `realtimeNanoseconds` is
/// CLOCK_REALTIME (as PTP or NTP discipline it) and `capture` CLOCK_MONOTONIC, the session clock.
public struct ClockReading: Sendable, Equatable {
    /// CLOCK_REALTIME, nanoseconds since the Unix epoch.
    public var realtimeNanoseconds: Int64
    /// The capture clock at the same moment.
    public var capture: MediaTime

    public init(realtimeNanoseconds: Int64, capture: MediaTime) {
        self.realtimeNanoseconds = realtimeNanoseconds
        self.capture = capture
    }
}
