import Foundation
import PauseCamCore

/// How many streams (program pictures, event streams) are open, against a limit: a viewer beyond it is refused
/// rather than slowing everyone down. Thread-safe: the count is a `Guarded`.
final class MonitorViewerCount: Sendable {
    let limit: Int
    private let count = Guarded(0)

    init(limit: Int) { self.limit = limit }

    /// Takes a place; false when all are taken.
    func take() -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Gives a place back.
    func release() { count.withLock { $0 -= 1 } }

    var current: Int { count.withLock { $0 } }
}
