import CV4L2

/// A filled buffer from `VIDIOC_DQBUF`: which mmap buffer, how much of it, and when the frame was captured.
public struct V4L2DequeuedBuffer: Sendable, Equatable {
    /// Which mmap buffer holds the frame; queue it again after copying.
    public var index: UInt32
    /// Bytes of the buffer the frame fills (a JPEG's size varies per frame).
    public var bytesUsed: Int
    /// `V4L2_BUF_FLAG_*`: error, timestamp clock.
    public var flags: Flags
    /// The driver's frame counter; a jump of more than one means frames were dropped before we saw them.
    public var sequence: UInt32
    /// `timestamp.tv_sec`.
    public var seconds: Int64
    /// `timestamp.tv_usec`.
    public var microseconds: Int64

    public init(index: UInt32, bytesUsed: Int, flags: Flags, sequence: UInt32, seconds: Int64, microseconds: Int64) {
        self.index = index
        self.bytesUsed = bytesUsed
        self.flags = flags
        self.sequence = sequence
        self.seconds = seconds
        self.microseconds = microseconds
    }

    /// `V4L2_BUF_FLAG_*` bits.
    public struct Flags: OptionSet, Sendable, Hashable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// `V4L2_BUF_FLAG_ERROR`: the frame is corrupt (a USB hiccup); skip it.
        public static let error = Flags(rawValue: UInt32(V4L2_BUF_FLAG_ERROR))
        /// `V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`: the timestamp is on `CLOCK_MONOTONIC` (the session clock).
        public static let timestampMonotonic = Flags(rawValue: UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC))
        /// `V4L2_BUF_FLAG_TIMESTAMP_MASK`.
        public static let timestampMask = Flags(rawValue: UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK))
    }

    /// True when the timestamp is on `CLOCK_MONOTONIC`.
    public var hasMonotonicTimestamp: Bool {
        flags.intersection(.timestampMask) == .timestampMonotonic
    }
}
