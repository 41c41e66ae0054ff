/// What a full `BoundedChannel` does with one more item. Each policy answers a sender that is faster than its
/// receiver without letting memory grow and without letting the sender hang on a receiver that never comes back:
/// two of them never wait, and the waiting one is released by `close()`.
public enum BoundedChannelPolicy: Sendable, Equatable {
    /// Room is made by dropping the oldest waiting items, and their weight is counted. For a live feed that wants
    /// the present: a device's frames waiting for a busy serial context.
    case dropOldest
    /// The sender waits until the receiver has made room: back-pressure, nothing lost. For work whose every item
    /// counts and whose receiver is known to progress: the simulated clock's encoder, a file lens's decoder.
    case block
    /// The new item is refused, its weight counted, and the sender decides what stands in for it. For a sender that
    /// must not wait: the real clock's encoder hand-off, where a refused picture is replaced by a repeat.
    case refuse
}
