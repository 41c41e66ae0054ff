import Foundation

/// The one bounded hand-off between threads: a FIFO of at most `capacity` units, with an explicit policy for a full
/// channel (`BoundedChannelPolicy`: drop the oldest, block the sender, or refuse the item), and every unit that did
/// not get through counted.
///
/// Why one type: every queue between two threads in the recorder (a device's mailbox in front of the serial
/// context, the encoder's job queue, the hand-off to x264, a file lens's decoded pictures) needs the same three
/// promises — memory bounded whatever the receiver does, order kept, losses counted rather than silent — and a
/// policy chosen where the channel is made, so the choice is visible in one word rather than in a hand-made loop.
///
/// Units: each item weighs `weight(item)` units (1 by default: a count; sample frames for audio). An item that
/// weighs nothing always fits, so a marker (a repeat without pixels, a barrier) never waits or is refused; an item
/// heavier than the whole capacity fits only into an empty channel, so it goes through alone rather than never.
///
/// Receiving: one item at a time with `receive()` (waits for one; `nil` once closed and empty), or everything at
/// once with `drain()` (never waits), for a receiver that is woken on demand: `send` says when the channel was
/// empty, so a caller schedules one drain per burst, not one per item.
///
/// The mutex is the only shared state; an item belongs to the channel from `send` until it is received, drained or
/// dropped. Blocking (a `.block` sender waiting for room, `receive` waiting for an item) parks the thread on a
/// semaphore registered under the mutex and signalled after every change, so no wake-up is lost.
public final class BoundedChannel<Element: Sendable>: Sendable {
    /// What `send` did with the item.
    public enum SendResult: Sendable, Equatable {
        /// The item waits in the channel. `wasEmpty`: nothing waited before it (a receiver woken on demand must be
        /// woken now; later sends join that wake-up).
        case accepted(wasEmpty: Bool)
        /// The channel was full under `.refuse`: the item was not taken, and its weight is counted as dropped.
        case refused
        /// The channel is closed: the item was not taken, and nothing is counted (a closed channel is an ending,
        /// not a loss).
        case closed

        /// True when the item is in the channel.
        public var isAccepted: Bool { if case .accepted = self { return true } else { return false } }
    }

    /// What one drain takes: the items in the order they were sent, and the units dropped since the drain before.
    public struct Drained: Sendable {
        public var items: [Element]
        public var dropped: Int
    }

    /// The waiting items (from `head` on; taken slots are nil so their memory goes at once), the counts, and the
    /// parked threads, all behind one mutex.
    private struct State: Sendable {
        var slots: [Element?] = []
        var head = 0
        var waitingWeight = 0
        var deepest = 0
        var capacity: Int
        var closed = false
        var droppedSinceDrain = 0
        var droppedTotal = 0
        var parked: [DispatchSemaphore] = []

        var count: Int { slots.count - head }

        /// Whether an item of `weight` fits now (see the type's comment for the two exceptions).
        func fits(_ weight: Int) -> Bool {
            weight == 0 || count == 0 || waitingWeight + weight <= capacity
        }

        mutating func append(_ item: Element, weight: Int) {
            slots.append(item)
            waitingWeight += weight
            deepest = max(deepest, waitingWeight)
        }

        mutating func takeFirst(weight: (Element) -> Int) -> Element {
            let item = slots[head]!
            slots[head] = nil
            head += 1
            waitingWeight -= max(0, weight(item))
            if head >= 64 && head * 2 >= slots.count {
                slots.removeFirst(head)
                head = 0
            }
            return item
        }

        mutating func countDropped(_ weight: Int) {
            droppedSinceDrain += weight
            droppedTotal += weight
        }

        /// Hands the parked threads to the caller, who signals them once the mutex is released.
        mutating func unpark() -> [DispatchSemaphore] {
            defer { parked.removeAll(keepingCapacity: true) }
            return parked
        }
    }

    /// What a full channel does with one more item.
    public let policy: BoundedChannelPolicy
    private let weight: @Sendable (Element) -> Int
    private let state: Guarded<State>

    /// A channel of at most `capacity` units under `policy`, each item weighing `weight(item)` units (1 by default).
    public init(capacity: Int, policy: BoundedChannelPolicy, weight: @escaping @Sendable (Element) -> Int = { _ in 1 }) {
        precondition(capacity > 0, "a bounded channel holds at least one unit")
        self.policy = policy
        self.weight = weight
        state = Guarded(State(capacity: capacity))
    }

    /// Hands `item` over from any thread, answering a full channel with the policy. Under `.block` this waits for
    /// room; `close()` releases the wait (the result is then `.closed`).
    @discardableResult
    public func send(_ item: Element) -> SendResult {
        let itemWeight = max(0, weight(item))
        let weight = self.weight
        let policy = self.policy
        while true {
            let (result, wake, parking) = state.withLock { box -> (SendResult?, [DispatchSemaphore], DispatchSemaphore?) in
                if box.closed { return (.closed, box.unpark(), nil) }
                // Before any drop: a drain is already owed to what was waiting, even if this item pushes it all out.
                let wasEmpty = box.count == 0
                if !box.fits(itemWeight) {
                    switch policy {
                    case .dropOldest:
                        while box.count > 0 && !box.fits(itemWeight) {
                            box.countDropped(max(0, weight(box.takeFirst(weight: weight))))
                        }
                    case .refuse:
                        box.countDropped(itemWeight)
                        return (.refused, [], nil)
                    case .block:
                        let parking = DispatchSemaphore(value: 0)
                        box.parked.append(parking)
                        return (nil, [], parking)
                    }
                }
                box.append(item, weight: itemWeight)
                return (.accepted(wasEmpty: wasEmpty), box.unpark(), nil)
            }
            wake.forEach { $0.signal() }
            if let result { return result }
            parking?.wait()
        }
    }

    /// The oldest item, waiting until one comes; `nil` once the channel is closed and empty.
    public func receive() -> Element? {
        let weight = self.weight
        while true {
            let (item, parking, wake) = state.withLock { box -> (Element?, DispatchSemaphore?, [DispatchSemaphore]) in
                if box.count > 0 { return (box.takeFirst(weight: weight), nil, box.unpark()) }
                if box.closed { return (nil, nil, []) }
                let parking = DispatchSemaphore(value: 0)
                box.parked.append(parking)
                return (nil, parking, [])
            }
            wake.forEach { $0.signal() }
            if let item { return item }
            guard let parking else { return nil }
            parking.wait()
        }
    }

    /// Takes everything waiting, oldest first, with the units dropped since the last drain. Never waits.
    public func drain() -> Drained {
        let (drained, wake) = state.withLock { box -> (Drained, [DispatchSemaphore]) in
            let items = box.slots[box.head...].map { $0! }
            box.slots.removeAll(keepingCapacity: true)
            box.head = 0
            box.waitingWeight = 0
            let dropped = box.droppedSinceDrain
            box.droppedSinceDrain = 0
            return (Drained(items: items, dropped: dropped), box.unpark())
        }
        wake.forEach { $0.signal() }
        return drained
    }

    /// No more items: senders get `.closed` (a waiting one at once), the receiver takes what waits and then `nil`.
    public func close() {
        let wake = state.withLock { box -> [DispatchSemaphore] in
            box.closed = true
            return box.unpark()
        }
        wake.forEach { $0.signal() }
    }

    /// Discards everything waiting (not counted as dropped: the receiver is going away), then closes.
    public func discardAndClose() {
        let wake = state.withLock { box -> [DispatchSemaphore] in
            box.slots.removeAll()
            box.head = 0
            box.waitingWeight = 0
            box.closed = true
            return box.unpark()
        }
        wake.forEach { $0.signal() }
    }

    /// Changes the capacity. Lowering it drops nothing: what waits stays, and new items wait, are refused or push
    /// out old ones (by the policy) until the depth is back under the new capacity.
    public func setCapacity(_ capacity: Int) {
        precondition(capacity > 0, "a bounded channel holds at least one unit")
        let wake = state.withLock { box -> [DispatchSemaphore] in
            box.capacity = capacity
            return box.unpark()
        }
        wake.forEach { $0.signal() }
    }

    /// The most units that may wait at once (see `setCapacity`).
    public var capacity: Int { state.withLock { $0.capacity } }

    /// Units waiting now.
    public var depth: Int { state.withLock { $0.waitingWeight } }

    /// Items waiting now.
    public var count: Int { state.withLock { $0.count } }

    /// The most units that ever waited at once: the bound, as the channel saw it.
    public var deepest: Int { state.withLock { $0.deepest } }

    /// Units dropped or refused since the channel was made.
    public var droppedTotal: Int { state.withLock { $0.droppedTotal } }

    /// True once `close()` or `discardAndClose()` was called.
    public var isClosed: Bool { state.withLock { $0.closed } }
}
