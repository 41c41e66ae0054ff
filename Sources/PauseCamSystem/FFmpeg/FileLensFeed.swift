import Foundation
import PauseCamCore

/// The hand-over between a `FileLens`'s decode thread and its frame ticks on the serial context: a bounded queue
/// of decoded pictures, so decoding runs ahead by at most `capacity` frames and never holds a whole movie.
///
/// The tick *waits* for the next picture when the decoder is behind instead of skipping it: the lens then delivers
/// exactly the file's frames in order whatever the thread timing, which keeps simulated-clock runs deterministic
/// (on the real clock the wait only happens when the machine cannot decode the file in real time).
/// Unchecked Sendable: its queue is guarded by `condition`.
final class FileLensFeed: @unchecked Sendable {
    /// What the decode thread hands over.
    enum Item {
        /// The next picture (its `pts` is set by the tick that delivers it).
        case picture(VideoFrame)
        /// The file ended and the lens does not loop.
        case end
        /// The file could not be read on; the text names the file and the cause.
        case failure(String)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var cancelled = false
    private let capacity: Int

    /// A feed holding at most `capacity` decoded pictures.
    init(capacity: Int) { self.capacity = capacity }

    /// Adds `item`, waiting while the feed is full; returns false once the feed was cancelled (the thread stops).
    func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, waiting until the decode thread has one; `nil` once cancelled.
    func take() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !cancelled { condition.wait() }
        guard !cancelled else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// Wakes both sides for good: the decode thread leaves, a waiting tick returns `nil`.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// True once `cancel()` was called.
    var isCancelled: Bool { condition.lock(); defer { condition.unlock() }; return cancelled }
}
