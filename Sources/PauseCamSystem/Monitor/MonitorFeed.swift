import Dispatch
import PauseCamCore
import Synchronization

/// The live monitor's pictures: the engine's `MonitorTap` on one side, the web server's `MonitorPictures` on the
/// other. One per run, made by the composition root and handed to both.
///
/// Devices' threads call `offer` with every frame while someone watches; the feed keeps a reference to each lens's
/// newest frame (the pixels are copy-on-write arrays nobody mutates, so nothing is copied) and wakes its worker, a
/// serial queue of its own that makes the JPEGs (`MonitorPictureMaker`): the program picture (the program's lens,
/// cropped to its digital zoom, at most 960 pixels wide and 15 a second) and a tile per lens (at most 320 wide, 3 a
/// second). A frame that arrives while the worker is busy replaces the one waiting, so a slow worker or a stalled
/// viewer costs monitor pictures, never a device's time. While nobody watches, `offer` keeps nothing and the worker
/// is never woken.
///
/// Threads: `offer` from any device thread, `programChanged` from the engine's serial context, the
/// `MonitorPictures` calls from any thread (`programPicture(after:timeoutSeconds:)` blocks its caller up to the
/// timeout). Shared state sits in one `Guarded`, held only to read or swap a few references, never while a JPEG is
/// made; the worker's own state sits in a second one that only the worker takes.
public final class MonitorFeed: MonitorTap, MonitorPictures {
    /// What every thread shares.
    private struct Shared {
        /// Viewers counted by `startWatching`/`stopWatching`.
        var watchers = 0
        /// Each lens's newest frame, while someone watches.
        var newest: [String: VideoFrame] = [:]
        /// What the program shows; `generation` rises with every change.
        var programLens = ""
        var digitalZoom = 1.0
        var generation: UInt64 = 0
        /// The newest program picture, and each lens's newest tile.
        var program: MonitorPicture?
        var tiles: [String: MonitorPicture] = [:]
        /// Viewers waiting for a newer program picture, by ticket.
        var waiters: [UInt64: DispatchSemaphore] = [:]
        var nextTicket: UInt64 = 0
        /// Set by `close()`: nothing more is kept or made, and nobody waits.
        var closed = false
        /// Viewers counted in `DecodedPictureShare` (all of them until `close()` gives them back).
        var sharing = 0
    }

    private let shared = Guarded(Shared())
    /// The viewer count as one atomic, so `isWatched` costs a device one load per frame; written under `shared`.
    private let watcherCount = Atomic<Int>(0)
    /// True while a worker round is queued and has not yet taken the newest frames: a frame offered then needs no
    /// second round.
    private let roundQueued = Atomic<Bool>(false)
    private let worker = DispatchQueue(label: "pausecam.monitor")
    private let maker = Guarded(MonitorPictureMaker())
    private let hooks: (any SystemHooks)?

    /// A feed that shows `programLens` (the rig's default lens) until told otherwise; `hooks` is told of each
    /// worker round.
    public init(programLens: String = "", hooks: (any SystemHooks)? = nil) {
        self.hooks = hooks
        shared.withLock { $0.programLens = programLens }
    }

    // MARK: MonitorTap

    public var isWatched: Bool { watcherCount.load(ordering: .relaxed) > 0 }

    /// Keeps `frame` as its lens's newest and wakes the worker unless a round is already queued. Any thread; holds
    /// the feed's lock only to swap the reference (the frame it replaces is let go after the lock, so freeing its
    /// pixels never holds anyone up).
    public func offer(_ frame: VideoFrame) {
        let (kept, replaced) = shared.withLock { state -> (Bool, VideoFrame?) in
            guard state.watchers > 0, !state.closed else { return (false, nil) }
            return (true, state.newest.updateValue(frame, forKey: frame.lens))
        }
        withExtendedLifetime(replaced) {}
        if kept { queueRound() }
    }

    public func programChanged(lens: String, digitalZoom: Double) {
        let changed = shared.withLock { state in
            guard state.programLens != lens || state.digitalZoom != digitalZoom else { return false }
            state.programLens = lens
            state.digitalZoom = digitalZoom
            state.generation += 1
            return state.watchers > 0 && !state.closed
        }
        if changed { queueRound() }
    }

    // MARK: MonitorPictures

    public func startWatching() {
        let shares = shared.withLock { state in
            state.watchers += 1
            watcherCount.store(state.watchers, ordering: .relaxed)
            if !state.closed { state.sharing += 1 }
            return !state.closed
        }
        if shares { DecodedPictureShare.shared.startSharing() }
    }

    /// That viewer left; when the last one leaves, the frames kept are let go (their cameras' buffers with them)
    /// and the worker's scalers and encoders are freed on its next round. An unmatched call changes nothing.
    public func stopWatching() {
        let (nobody, shares) = shared.withLock { state -> (Bool, Bool) in
            guard state.watchers > 0 else { return (false, false) }
            state.watchers -= 1
            watcherCount.store(state.watchers, ordering: .relaxed)
            if state.watchers == 0 { state.newest = [:] }
            let shares = state.sharing > 0
            if shares { state.sharing -= 1 }
            return (state.watchers == 0, shares)
        }
        if shares { DecodedPictureShare.shared.stopSharing() }
        if nobody { worker.async { [self] in maker.withLock { $0.reset() } } }
    }

    public func programPicture(after sequence: UInt64, timeoutSeconds: Double) -> MonitorPicture? {
        let seconds = timeoutSeconds.isFinite ? min(max(0, timeoutSeconds), 86_400) : (timeoutSeconds > 0 ? 86_400 : 0)
        let deadline = DispatchTime.now() + seconds
        let wakeUp = DispatchSemaphore(value: 0)
        while true {
            let (picture, ticket) = shared.withLock { state -> (MonitorPicture?, UInt64?) in
                if let picture = state.program, picture.sequence > sequence { return (picture, nil) }
                guard !state.closed, DispatchTime.now() < deadline else { return (nil, nil) }
                state.nextTicket += 1
                state.waiters[state.nextTicket] = wakeUp
                return (nil, state.nextTicket)
            }
            guard let ticket else { return picture }
            if wakeUp.wait(timeout: deadline) == .timedOut {
                // A picture published between the timeout and here still counts; the ticket goes either way.
                return shared.withLock { state in
                    state.waiters[ticket] = nil
                    return state.program.flatMap { $0.sequence > sequence ? $0 : nil }
                }
            }
        }
    }

    public func lensPicture(_ lens: String) -> MonitorPicture? {
        shared.withLock { $0.tiles[lens] }
    }

    // MARK: Lifetime

    /// Ends the feed at shutdown: frames are let go, `offer` keeps nothing more, every viewer waiting in
    /// `programPicture` returns at once (and later calls never wait), and the worker's queued round finishes before
    /// this returns. Pictures already made stay readable. Call it after the engine's devices have stopped (or at
    /// least after the web server stops asking); idempotent.
    public func close() {
        let (waiting, sharing) = shared.withLock { state in
            state.closed = true
            state.newest = [:]
            let waiting = Array(state.waiters.values)
            state.waiters = [:]
            defer { state.sharing = 0 }
            return (waiting, state.sharing)
        }
        waiting.forEach { $0.signal() }
        for _ in 0..<sharing { DecodedPictureShare.shared.stopSharing() }
        worker.sync { maker.withLock { $0.reset() } }
    }

    /// Waits until every worker round queued so far has run (tests: after the last `offer`, its pictures exist).
    func waitForWorker() {
        worker.sync {}
    }

    /// Viewers waiting in `programPicture` now (tests: a viewer is waiting before the test acts).
    var waitingViewers: Int { shared.withLock { $0.waiters.count } }

    /// Pictures the worker failed to make, and the last failure's text.
    var failures: (count: Int, last: String?) { maker.withLock { ($0.failures, $0.lastFailure) } }

    // MARK: Worker

    /// Queues a worker round unless one is queued already.
    private func queueRound() {
        guard !roundQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        worker.async { [self] in makePictures() }
    }

    /// One worker round: takes the newest frames and the program, makes whatever pictures are due, and publishes
    /// them. A program picture made for a program that changed meanwhile is dropped, so after `programChanged` the
    /// next picture a viewer gets shows the new program.
    private func makePictures() {
        roundQueued.store(false, ordering: .sequentiallyConsistent)
        hooks?.didRunMonitorRound()
        let taken = shared.withLock { state -> (frames: [String: VideoFrame], lens: String, zoom: Double, generation: UInt64)? in
            guard state.watchers > 0, !state.closed else { return nil }
            return (state.newest, state.programLens, state.digitalZoom, state.generation)
        }
        guard let taken else { return }
        maker.withLock { maker in
            if let frame = taken.frames[taken.lens], maker.programIsDue(frame, generation: taken.generation),
               let made = maker.programPicture(of: frame, digitalZoom: taken.zoom, generation: taken.generation) {
                publishProgram(made, generation: taken.generation)
            }
            for (_, frame) in taken.frames.sorted(by: { $0.key < $1.key }) where maker.tileIsDue(frame) {
                if let made = maker.tile(of: frame) { publishTile(made, lens: frame.lens) }
            }
        }
    }

    /// Makes `made` the newest program picture (unless the program changed since its frame was taken) and wakes
    /// every viewer waiting for one.
    private func publishProgram(_ made: MonitorPictureMaker.Made, generation: UInt64) {
        let waiting = shared.withLock { state -> [DispatchSemaphore] in
            guard state.generation == generation, !state.closed else { return [] }
            state.program = MonitorPicture(jpeg: made.jpeg, sequence: (state.program?.sequence ?? 0) + 1,
                                           captureTime: made.captureTime, width: made.width, height: made.height)
            let waiting = Array(state.waiters.values)
            state.waiters = [:]
            return waiting
        }
        waiting.forEach { $0.signal() }
    }

    /// Makes `made` the newest tile of `lens`.
    private func publishTile(_ made: MonitorPictureMaker.Made, lens: String) {
        shared.withLock { state in
            guard !state.closed else { return }
            state.tiles[lens] = MonitorPicture(jpeg: made.jpeg, sequence: (state.tiles[lens]?.sequence ?? 0) + 1,
                                               captureTime: made.captureTime, width: made.width, height: made.height)
        }
    }
}
