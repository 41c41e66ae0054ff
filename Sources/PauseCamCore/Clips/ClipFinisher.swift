import Foundation

/// Finishes stopped clips on a `BackgroundWorker`, so the serial context is free the moment a clip is handed over:
/// the next `record` starts at once while the previous movie is still being remuxed.
///
/// Shared between the serial context (which hands clips over and collects what was finished), the worker (which
/// runs them) and the threads that must wait for every clip before the process ends (the shell's quit, the end of
/// `pausecam run`, a stop signal): its mutex is the only shared state. A waiting thread parks on a semaphore
/// registered under the mutex and signalled after every outcome, so no wake-up is lost.
public final class ClipFinisher: Sendable {
    /// How a handed-over clip ended.
    public enum Outcome: Sendable {
        /// The movie, thumbnail and final sidecar are written; `timer` is the clip's duration.
        case saved(Recorder.Clip, timer: MediaTime)
        /// The movie could not be finished; `moviePath` is where it should have gone, `reason` says why;
        /// `partialKept` when its `.partial` still holds the recording (not when that file was deleted);
        /// `isoPartials` the `.partial`s of the clip's ISO movies, kept as they are.
        case failed(moviePath: String, reason: String, partialKept: Bool, isoPartials: [String])
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
    private let state = Guarded(State())

    /// The clips between hand-over and collection, and the threads waiting for them.
    private struct State {
        /// The movies handed over and not yet collected, in the order they were handed over.
        var pending: [String] = []
        /// Outcomes of the pending movies that are done.
        var outcomes: [String: Outcome] = [:]
        /// Threads waiting for an outcome, woken (and dropped) at each one.
        var parked: [DispatchSemaphore] = []
    }

    /// A finisher running its jobs on `worker`.
    public init(worker: any BackgroundWorker) { self.worker = worker }

    /// Runs `job` on the worker. `finished` is called on the worker's thread once its outcome waits in `collect`.
    public func start(_ job: ClipFinishJob, finished: @escaping @Sendable () -> Void = {}) {
        let path = job.moviePath
        let handOver = HandOver(job)
        state.withLock { $0.pending.append(path) }
        worker.submit { [self] in
            // The job, and the sink it owns, are released before the outcome is published: a caller waiting for every
            // finish may end the process right after, and the encoder's threads are joined as the sink goes.
            let outcome = handOver.run()
            let parked = state.withLock { state -> [DispatchSemaphore] in
                state.outcomes[path] = outcome
                defer { state.parked = [] }
                return state.parked
            }
            for thread in parked { thread.signal() }
            finished()
        }
    }

    /// Holds a job until the worker takes it, so the worker's closure does not keep the job (and its sink) alive.
    private final class HandOver: Sendable {
        private let job: Guarded<ClipFinishJob?>
        init(_ job: ClipFinishJob) { self.job = Guarded(job) }

        /// Runs the job once and lets it go.
        func run() -> Outcome {
            guard let job = self.job.withLock({ $0.take() }) else {
                preconditionFailure("a clip's finishing job ran twice")
            }
            do {
                return .saved(try job.run(), timer: job.timer)
            } catch {
                let kept = !(error is ClipFinishJob.MovieFileDeleted)
                return .failed(moviePath: job.moviePath, reason: "\(error)", partialKept: kept,
                               isoPartials: kept ? job.isos.map(\.sink.partialPath) : [])
            }
        }
    }

    /// The movies handed over whose outcome was not collected yet (their final paths), oldest first: what status
    /// shows as "saving". Callable from any thread.
    public var saving: [String] { state.withLock { $0.pending } }

    /// Takes the outcomes that are done, oldest first, stopping at the first one still running (so events keep the
    /// order of the stops); with `only`, just that movie's, if it is done.
    public func collect(only path: String? = nil) -> [Outcome] {
        state.withLock { state in
            var taken: [Outcome] = []
            while let next = state.pending.first(where: { path == nil || $0 == path }),
                  let outcome = state.outcomes[next] {
                if path == nil && next != state.pending.first { break }
                taken.append(outcome)
                state.outcomes[next] = nil
                state.pending.removeAll { $0 == next }
                if path != nil { break }
            }
            return taken
        }
    }

    /// Blocks until the movie at `path` is done (or was collected).
    public func waitUntilDone(_ path: String) {
        park { $0.pending.contains(path) && $0.outcomes[path] == nil }
    }

    /// Blocks the calling thread until every movie handed over is done, and every other work submitted to the
    /// worker before the call has run: the scene-boundary sidecar writes, and the removal of the sidecar of a clip
    /// that kept no frame (a write half done when the process ends would leave a `.json.tmp` behind, a finished one
    /// a sidecar of nothing). Never call it on the serial context with `.whenFinished` pending collections in mind:
    /// it waits for the worker only, not for the collection; never on the worker itself.
    public func waitUntilIdle() {
        park { state in state.pending.contains { state.outcomes[$0] == nil } }
        // The worker runs its work in order: once this last piece runs, everything before it has.
        let done = DispatchSemaphore(value: 0)
        worker.submit { done.signal() }
        done.wait()
    }

    /// Blocks the calling thread while `stillWaiting` holds, parking it until the next outcome each time.
    private func park(while stillWaiting: (State) -> Bool) {
        while let parking = state.withLock({ state -> DispatchSemaphore? in
            guard stillWaiting(state) else { return nil }
            let parking = DispatchSemaphore(value: 0)
            state.parked.append(parking)
            return parking
        }) {
            parking.wait()
        }
    }
}
