import Foundation

/// Writes one clip's sidecar at every scene boundary without making the serial context wait for the disk: the JSON
/// is encoded on the context (it describes the recorder's state at that moment), and the atomic write with its fsync
/// runs on a worker — the finisher's, so the clip's final sidecar, written by its `ClipFinishJob` on the same serial
/// worker, always lands after every scene-boundary one. Without a worker it writes at once (tests).
///
/// A write waiting for the worker is replaced by a newer one for the same file rather than queued behind it: each
/// write holds the whole sidecar, so only the newest matters, and scene changes faster than the disk (a burst of
/// pedal toggles) cost one write, not one each.
///
/// A write that fails on the worker cannot throw to the recorder any more: it is remembered here and reported by the
/// next write and by the final sidecar's warnings. The mutex guards that memory and the waiting writes; the store
/// is used by one thread at a time (the worker's, or the caller's when there is no worker).
public final class SidecarWriter: Sendable {
    private let store: any SidecarStore
    private let worker: (any BackgroundWorker)?
    private let state = Guarded(State())

    /// What the serial context and the worker share.
    private struct State {
        /// Background write failures not yet reported.
        var failures: [String] = []
        /// The newest data waiting for the worker, by path; a path is here while a write of it is submitted and not
        /// yet started.
        var waiting: [String: Data] = [:]
    }

    /// A writer to `store`, on `worker` when given.
    public init(store: any SidecarStore, worker: (any BackgroundWorker)?) {
        self.store = store
        self.worker = worker
    }

    /// Writes `data` to `path`: later on the worker, or now. Throws the failure of an earlier background write, once.
    public func write(_ data: Data, to path: String) throws {
        let earlier = takeFailures()
        guard let worker else {
            try store.write(data, to: path)
            return
        }
        let submitted = state.withLock { state -> Bool in
            defer { state.waiting[path] = data }
            return state.waiting[path] != nil
        }
        if !submitted {
            worker.submit { [self] in
                guard let newest = state.withLock({ $0.waiting.removeValue(forKey: path) }) else { return }
                do {
                    try store.write(newest, to: path)
                } catch {
                    state.withLock { $0.failures.append("\(error)") }
                }
            }
        }
        if let first = earlier.first { throw SidecarWriteFailure(description: first) }
    }

    /// Removes the sidecar at `path` after every write already submitted (on the worker, or now): a write still
    /// waiting is dropped first, so nothing lands after the removal.
    public func remove(_ path: String) {
        guard let worker else {
            store.remove(path)
            return
        }
        state.withLock { _ = $0.waiting.removeValue(forKey: path) }
        worker.submit { [self] in store.remove(path) }
    }

    /// Writes `data` now, on the calling thread (the finishing job, already on the worker).
    public func writeNow(_ data: Data, to path: String) throws {
        try store.write(data, to: path)
    }

    /// Writes the exports the rig asks for beside the finished movie, now, on the calling thread (the finishing
    /// job); returns a warning for each one that could not be written.
    public func writeExports(of sidecar: Sidecar, movieURL: URL, formats: [ExportFormat]) -> [String] {
        ClipExports.write(sidecar: sidecar, movieURL: movieURL, formats: formats, store: store)
    }

    /// Background write failures not yet reported, taken.
    public func takeFailures() -> [String] {
        state.withLock { state in
            defer { state.failures = [] }
            return state.failures
        }
    }
}

/// A sidecar write that failed on the worker, reported at the next write.
public struct SidecarWriteFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
}
