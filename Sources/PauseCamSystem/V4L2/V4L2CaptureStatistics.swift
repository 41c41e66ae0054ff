/// Counters a `V4L2Camera` keeps while streaming, for the status line and the sidecar.
public struct V4L2CaptureStatistics: Sendable, Equatable {
    /// Frames handed to `deliver`.
    public var delivered: Int = 0
    /// Frames the driver dropped before we dequeued them: gaps in the buffer sequence numbers.
    public var dropped: Int = 0
    /// Frames skipped because the driver flagged them (`V4L2_BUF_FLAG_ERROR`) or they did not decode.
    public var corrupt: Int = 0
    public init() {}
}
