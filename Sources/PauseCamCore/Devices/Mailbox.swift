import Foundation

/// The bounded hand-off from one device's thread to the serial context: a camera's frames or a microphone's
/// chunks wait here until the context drains them, all at once. A `BoundedChannel` under `.dropOldest`, with the
/// words the device code speaks (`post`, `drain`).
///
/// Why bounded: when the context is busy (a burst of commands, a slow sink), a device keeps capturing; an unbounded
/// queue in front of the context would grow by 90 frames of 3 MB a second with three 1080p lenses. Why one wake-up
/// per drain: a post into an empty mailbox asks the caller to schedule one drain; posts before that drain add to it
/// and ask nothing, so a busy context gets one work item per device, not one per sample.
///
/// When full, the **oldest** item is dropped and counted. A live recorder wants the present: the output clock takes
/// the newest frame at or before each slot, so old frames are the ones it would skip anyway, and keeping the newest
/// lets the context catch up with now at the first drain instead of working through a stale backlog (the retimer
/// would drop samples that arrive behind the time the context already saw). Drops are counted in the items' own
/// unit (`weight`: 1 per frame, sample frames per audio chunk) and handed to the drainer with the items, so each
/// drop is reported to the clip that was recording when it was noticed.
public final class Mailbox<Item: Sendable>: Sendable {
    /// What one drain takes: the items in the order they were posted, and how many units were dropped since the
    /// drain before.
    public typealias Drained = BoundedChannel<Item>.Drained

    /// The most units that wait at once (frames, or sample frames); at least one item always fits.
    public let capacity: Int
    private let channel: BoundedChannel<Item>

    /// A mailbox holding at most `capacity` units, each item weighing `weight(item)` (1 by default: a count).
    public init(capacity: Int, weight: @escaping @Sendable (Item) -> Int = { _ in 1 }) {
        precondition(capacity > 0, "a mailbox holds at least one unit")
        self.capacity = capacity
        channel = BoundedChannel(capacity: capacity, policy: .dropOldest, weight: weight)
    }

    /// Adds `item` (from any thread), dropping the oldest items while it would not fit. Returns true when the
    /// caller must schedule a drain: the first post since the last drain (the mailbox was empty); later posts join
    /// that drain.
    public func post(_ item: Item) -> Bool {
        channel.send(item) == .accepted(wasEmpty: true)
    }

    /// Takes everything waiting, oldest first, with the drops since the last drain (on the serial context). The next
    /// post asks for a new drain.
    public func drain() -> Drained { channel.drain() }

    /// Units waiting now.
    public var waiting: Int { channel.depth }

    /// Units dropped since the mailbox was made.
    public var droppedTotalCount: Int { channel.droppedTotal }
}
