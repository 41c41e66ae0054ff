import Foundation
import PauseCamCore

/// The hand-over between a `FileLens`'s decode thread and its frame ticks on the serial context: a
/// `BoundedChannel` of decoded pictures under `.block`, so decoding runs ahead by at most `capacity` frames and
/// never holds a whole movie.
///
/// The tick *waits* for the next picture when the decoder is behind instead of skipping it: the lens then delivers
/// exactly the file's frames in order whatever the thread timing, which keeps simulated-clock runs deterministic
/// (on the real clock the wait only happens when the machine cannot decode the file in real time).
final class FileLensFeed: Sendable {
    /// What the decode thread hands over.
    enum Item: Sendable {
        /// The next picture (its `pts` is set by the tick that delivers it).
        case picture(VideoFrame)
        /// The file ended and the lens does not loop.
        case end
        /// The file could not be read on; the text names the file and the cause.
        case failure(String)
    }

    private let channel: BoundedChannel<Item>

    /// A feed holding at most `capacity` decoded pictures.
    init(capacity: Int) { channel = BoundedChannel(capacity: capacity, policy: .block) }

    /// Adds `item`, waiting while the feed is full; returns false once the feed was cancelled (the thread stops).
    func put(_ item: Item) -> Bool { channel.send(item).isAccepted }

    /// The next item, waiting until the decode thread has one; `nil` once cancelled.
    func take() -> Item? { channel.receive() }

    /// Wakes both sides for good: the decode thread leaves, a waiting tick returns `nil`.
    func cancel() { channel.discardAndClose() }

    /// True once `cancel()` was called.
    var isCancelled: Bool { channel.isClosed }
}
