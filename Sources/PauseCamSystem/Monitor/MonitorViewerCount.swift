import Foundation

/// How many streams (program pictures, event streams) are open, against a limit: a viewer beyond it is refused
/// rather than slowing everyone down. Thread-safe.
/// Unchecked Sendable: its count is under `lock`.
final class MonitorViewerCount: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var count = 0

    init(limit: Int) { self.limit = limit }

    /// Takes a place; false when all are taken.
    func take() -> Bool {
        lock.withLock {
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a place back.
    func release() { lock.withLock { count -= 1 } }

    var current: Int { lock.withLock { count } }
}
