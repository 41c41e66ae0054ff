import Foundation

/// Finishes stopped clips on a `BackgroundWorker`, so the serial context is free the moment a clip is handed over:
/// the next `record` starts at once while the previous movie is still being remuxed.
///
/// Shared between the serial context (which hands clips over and collects what was finished), the worker (which
/// runs them) and the threads that must wait for every clip before the process ends (the shell's quit, the end of
/// `pausecam run`, a stop signal): its condition lock is the only shared state.
public final class ClipFinisher: @unchecked Sendable {
    /// How a handed-over clip ended.
    public enum Outcome: Sendable {
        /// The movie, thumbnail and final sidecar are written; `timer` is the clip's duration.
        case saved(Recorder.Clip, timer: MediaTime)
        /// The movie could not be finished; `moviePath` is where it should have gone (its `.partial` holds the
        /// recording), `reason` says why.
        case failed(moviePath: String, reason: String)
    }

    private let worker: any BackgroundWorker
    private let condition = NSCondition()
    /// The movies being finished, in the order they were handed over.
    private var inProgress: [String] = []
    /// Outcomes not yet collected by the serial context.
    private var outcomes: [Outcome] = []

    /// A finisher running its jobs on `worker`.
    public init(worker: any BackgroundWorker) { self.worker = worker }

    /// Runs `job` on the worker. `finished` is called on the worker's thread once its outcome waits in `collect()`
    /// (the controller schedules a collection on the serial context there).
    public func start(_ job: ClipFinishJob, finished: @escaping @Sendable () -> Void) {
        let path = job.moviePath
        condition.withLock { inProgress.append(path) }
        worker.submit { [self] in
            let outcome: Outcome
            do {
                outcome = .saved(try job.run(), timer: job.timer)
            } catch {
                outcome = .failed(moviePath: path, reason: "\(error)")
            }
            condition.withLock {
                if let index = inProgress.firstIndex(of: path) { inProgress.remove(at: index) }
                outcomes.append(outcome)
                condition.broadcast()
            }
            finished()
        }
    }

    /// The movies being finished now (their final paths), oldest first. Callable from any thread.
    public var saving: [String] { condition.withLock { inProgress } }

    /// Takes the outcomes finished since the last collection, in the order the clips were finished.
    public func collect() -> [Outcome] {
        condition.withLock {
            let taken = outcomes
            outcomes = []
            return taken
        }
    }

    /// Blocks the calling thread (never the serial context: the worker may post to it) until no clip is being
    /// finished.
    public func waitUntilIdle() {
        condition.lock()
        while !inProgress.isEmpty { condition.wait() }
        condition.unlock()
    }
}
