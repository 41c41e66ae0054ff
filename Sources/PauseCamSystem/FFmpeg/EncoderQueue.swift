import Foundation

/// The bounded hand-off between the recording thread (producer) and the encoder thread (consumer).
///
/// Why bounded: the capture path must never wait on x264 for long, and memory must never grow without bound when
/// the encoder falls behind. The producer chooses per item what happens when the queue is at its limit: `put` waits
/// for room (the simulated clock, and audio, which is never dropped), `offer` gives up and reports a drop (video on
/// the real clock). The consumer marks each item `done` after handling it, so `waitUntilIdle` can tell when
/// everything handed over has really been processed (tests use it to read a `.partial` file at a known point).
/// Unchecked Sendable: its items and counts are guarded by `condition`.
final class EncoderQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var inFlight = 0
    private var closed = false
    /// Which items count against a counted item's limit (video frames: audio must not eat the video slack).
    private let isCounted: (Element) -> Bool
    private var countedWaiting = 0

    /// A queue of two kinds of items (those `counting` accepts, and the others), each limited by how many of its
    /// own kind wait, so one kind never uses up the other's room. By default every item is of the first kind.
    init(counting: @escaping (Element) -> Bool = { _ in true }) {
        isCounted = counting
    }

    /// How many waiting items stand against `item`'s limit: items of its own kind (counted or not).
    private func waiting(against item: Element) -> Int {
        isCounted(item) ? countedWaiting : items.count - head - countedWaiting
    }

    private func append(_ item: Element) {
        items.append(item)
        if isCounted(item) { countedWaiting += 1 }
        condition.broadcast()
    }

    /// Items waiting (not yet taken by the consumer).
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return items.count - head
    }

    /// Adds `item`, first waiting while `limit` or more items wait. Returns false only when the queue was closed
    /// (the item is then discarded).
    @discardableResult
    func put(_ item: Element, waitingBelow limit: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed && waiting(against: item) >= limit { condition.wait() }
        if closed { return false }
        append(item)
        return true
    }

    /// Adds `item` whatever waits, for items too small to limit whose loss would cost more than they hold (a
    /// repeat of the picture before: without it the movie loses a frame's place). Only a closed queue drops it.
    func add(_ item: Element) {
        condition.lock()
        defer { condition.unlock() }
        if !closed { append(item) }
    }

    /// Adds `item` when fewer than `limit` items wait; returns false (the item is dropped) when full or closed.
    func offer(_ item: Element, below limit: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if closed || waiting(against: item) >= limit { return false }
        append(item)
        return true
    }

    /// The next item, waiting for one; `nil` once the queue is closed and empty. Each item returned must be
    /// followed by one `done()`.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && items.count == head { condition.wait() }
        if items.count == head { return nil }
        let item = items[head]
        head += 1
        if isCounted(item) { countedWaiting -= 1 }
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        inFlight += 1
        condition.broadcast()
        return item
    }

    /// The consumer finished the item it last took.
    func done() {
        condition.lock()
        inFlight -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every item put so far has been taken and handled.
    func waitUntilIdle() {
        condition.lock()
        while items.count > head || inFlight > 0 { condition.wait() }
        condition.unlock()
    }

    /// No more items: the consumer drains what waits, then `take` returns nil; producers stop waiting.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Discards everything waiting (abort), then closes.
    func discardAndClose() {
        condition.lock()
        items.removeAll()
        head = 0
        countedWaiting = 0
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
