import Foundation

/// A `BackgroundWorker` with one thread of its own: jobs run one at a time, in the order submitted, so clips are
/// finished in the order they were stopped (and `saved` events come in that order).
public final class SerialQueueWorker: BackgroundWorker {
    private let queue: DispatchQueue

    /// A worker whose thread is called `label` (seen in debuggers and `top -H`).
    public init(label: String) { queue = DispatchQueue(label: label) }

    public func submit(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }
}
