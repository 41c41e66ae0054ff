import Foundation
import Synchronization

/// The bounded hand-off from one device's thread to the serial context: a camera's frames or a microphone's
/// chunks wait here until the context drains them, all at once.
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
///
/// The mutex is the only shared state; the items are owned by the mailbox from `post` until `drain` returns them.
public final class Mailbox<Item: Sendable>: Sendable {
    /// What one drain takes: the items in the order they were posted, and how many units were dropped since the
    /// drain before.
    public struct Drained: Sendable {
        public var items: [Item]
        public var dropped: Int
    }

    /// The waiting items (from `head` on) and the counts, all behind one mutex.
    private struct Contents: Sendable {
        var items: [Item] = []
        var head = 0
        var waitingWeight = 0
        var droppedSinceDrain = 0
        var droppedTotal = 0
        var wakeUpPosted = false
    }

    /// The most units that wait at once (frames, or sample frames); at least one item always fits.
    public let capacity: Int
    private let weight: @Sendable (Item) -> Int
    private let contents = Mutex(Contents())

    /// A mailbox holding at most `capacity` units, each item weighing `weight(item)` (1 by default: a count).
    public init(capacity: Int, weight: @escaping @Sendable (Item) -> Int = { _ in 1 }) {
        precondition(capacity > 0, "a mailbox holds at least one unit")
        self.capacity = capacity
        self.weight = weight
    }

    /// Adds `item` (from any thread), dropping the oldest items while it would not fit. Returns true when the
    /// caller must schedule a drain: the first post since the last drain; later posts join that drain.
    public func post(_ item: Item) -> Bool {
        let itemWeight = max(0, weight(item))
        let capacity = self.capacity
        let weight = self.weight
        return contents.withLock { box in
            while box.head < box.items.count && box.waitingWeight + itemWeight > capacity {
                let oldest = max(0, weight(box.items[box.head]))
                box.items[box.head] = item  // releases the oldest item's memory now; overwritten by the shift below
                box.head += 1
                box.waitingWeight -= oldest
                box.droppedSinceDrain += oldest
                box.droppedTotal += oldest
            }
            if box.head > 0 && box.head * 2 >= box.items.count {
                box.items.removeFirst(box.head)
                box.head = 0
            }
            box.items.append(item)
            box.waitingWeight += itemWeight
            guard !box.wakeUpPosted else { return false }
            box.wakeUpPosted = true
            return true
        }
    }

    /// Takes everything waiting, oldest first, with the drops since the last drain (on the serial context). The next
    /// post asks for a new drain.
    public func drain() -> Drained {
        contents.withLock { box in
            let taken = Array(box.items[box.head...])
            box.items.removeAll(keepingCapacity: true)
            box.head = 0
            box.waitingWeight = 0
            let dropped = box.droppedSinceDrain
            box.droppedSinceDrain = 0
            box.wakeUpPosted = false
            return Drained(items: taken, dropped: dropped)
        }
    }

    /// Units waiting now.
    public var waiting: Int { contents.withLock { $0.waitingWeight } }

    /// Units dropped since the mailbox was made.
    public var droppedTotalCount: Int { contents.withLock { $0.droppedTotal } }
}
