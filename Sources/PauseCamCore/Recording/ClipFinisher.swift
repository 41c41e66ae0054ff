import Foundation

/// Finishes stopped clips on a `BackgroundWorker`, so the serial context is free the moment a clip is handed over:
/// the next `record` starts at once while the previous movie is still being remuxed.
///
/// Shared between the serial context (which hands clips over and collects what was finished), the worker (which
/// runs them) and the threads that must wait for every clip before the process ends (the shell's quit, the end of
/// `pausecam run`, a stop signal): its condition lock is the only shared state.
/// Unchecked Sendable: pending clips and outcomes are under `condition`; the worker is itself Sendable.
public final class ClipFinisher: @unchecked Sendable {
    /// How a handed-over clip ended.
    public enum Outcome: Sendable {
        /// The movie, thumbnail and final sidecar are written; `timer` is the clip's duration.
        case saved(Recorder.Clip, timer: MediaTime)
        /// The movie could not be finished; `moviePath` is where it should have gone, `reason` says why;
        /// `partialKept` when its `.partial` still holds the recording (not when that file was deleted).
        case failed(moviePath: String, reason: String, partialKept: Bool)
    }

    /// When the serial context hears that a clip was saved. The composition root chooses.
    public enum SavedEvents: Sendable, Equatable {
        /// As soon as the worker is done (the real clock): the worker posts the collection.
        case whenFinished
        /// At this much session time after the hand-over, waiting there for the worker if it is not done yet (the
        /// simulated clock): events then come at the same session time in every run, so transcripts are stable,
        /// however long the machine took to remux.
        case after(MediaTime)
    }

    /// Runs the jobs; recorders also write their scene-boundary sidecars here, so each clip's final sidecar comes
    /// after them.
    let worker: any BackgroundWorker
    private let condition = NSCondition()
    /// The movies handed over and not yet collected, in the order they were handed over.
    private var pending: [String] = []
    /// Outcomes of the pending movies that are done.
    private var outcomes: [String: Outcome] = [:]

    /// A finisher running its jobs on `worker`.
    public init(worker: any BackgroundWorker) { self.worker = worker }

    /// Runs `job` on the worker. `finished` is called on the worker's thread once its outcome waits in `collect`.
    public func start(_ job: ClipFinishJob, finished: @escaping @Sendable () -> Void = {}) {
        let path = job.moviePath
        let handOver = HandOver(job)
        condition.withLock { pending.append(path) }
        worker.submit { [self] in
            // The job, and the sink it owns, are released before the outcome is published: a caller waiting for every
            // finish may end the process right after, and the encoder's threads are joined as the sink goes.
            let outcome = handOver.run()
            condition.withLock {
                outcomes[path] = outcome
                condition.broadcast()
            }
            finished()
        }
    }

    /// Holds a job until the worker takes it, so the worker's closure does not keep the job (and its sink) alive.
    /// Unchecked Sendable: made on the serial context and run once, by the worker, which alone touches it after.
    private final class HandOver: @unchecked Sendable {
        private var job: ClipFinishJob?
        init(_ job: ClipFinishJob) { self.job = job }

        /// Runs the job once and lets it go.
        func run() -> Outcome {
            guard let job else { preconditionFailure("a clip's finishing job ran twice") }
            self.job = nil
            do {
                return .saved(try job.run(), timer: job.timer)
            } catch {
                return .failed(moviePath: job.moviePath, reason: "\(error)",
                               partialKept: !(error is ClipFinishJob.MovieFileDeleted))
            }
        }
    }

    /// The movies handed over whose outcome was not collected yet (their final paths), oldest first: what status
    /// shows as "saving". Callable from any thread.
    public var saving: [String] { condition.withLock { pending } }

    /// Takes the outcomes that are done, oldest first, stopping at the first one still running (so events keep the
    /// order of the stops); with `only`, just that movie's, if it is done.
    public func collect(only path: String? = nil) -> [Outcome] {
        condition.withLock {
            var taken: [Outcome] = []
            while let next = pending.first(where: { path == nil || $0 == path }), let outcome = outcomes[next] {
                if path == nil && next != pending.first { break }
                taken.append(outcome)
                outcomes[next] = nil
                pending.removeAll { $0 == next }
                if path != nil { break }
            }
            return taken
        }
    }

    /// Blocks until the movie at `path` is done (or was collected).
    public func waitUntilDone(_ path: String) {
        condition.lock()
        while pending.contains(path) && outcomes[path] == nil { condition.wait() }
        condition.unlock()
    }

    /// Blocks the calling thread until every movie handed over is done. Never call it on the serial context with
    /// `.whenFinished` pending collections in mind: it waits for the worker only, not for the collection.
    public func waitUntilIdle() {
        condition.lock()
        while pending.contains(where: { outcomes[$0] == nil }) { condition.wait() }
        condition.unlock()
    }
}
