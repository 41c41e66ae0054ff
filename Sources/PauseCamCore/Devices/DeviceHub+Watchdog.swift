import Foundation

/// The freeze watchdog's side of `DeviceHub`: every camera the lens bank starts is watched (its lens's frames are
/// counted on the capture thread), a `FreezeWatchdog` per lens decides on regular checks on the serial context, and
/// the hub carries out its actions on the device worker — stop and start the stream, then close and reopen the
/// device — telling each step as an event and in the clip's sidecar. The movie needs nothing from here: while the
/// camera is silent the held picture and then the slate keep it at its frame rate, as for any silent camera.
extension DeviceHub {
    /// A lens's watchdog and the generation its scheduled checks belong to: a stop or a new start bumps it, so
    /// the checks of an earlier run end.
    struct WatchedStream {
        var generation: Int
        var watchdog: FreezeWatchdog
    }

    /// Starts watching `lens`'s camera, just started by the bank: the watchdog's time runs from now.
    func watchStream(lens name: String) {
        let generation = (watchdogs[name]?.generation ?? 0) + 1
        var watchdog = FreezeWatchdog(limit: rig.watchdog(forLens: name))
        _ = watchdog.handle(.started(at: serialContext.clock.now(), frames: frameCounters[name]?.frames ?? 0))
        watchdogs[name] = WatchedStream(generation: generation, watchdog: watchdog)
        scheduleWatchdogCheck(lens: name, generation: generation, interval: watchdog.checkInterval)
    }

    /// Stops watching `lens` (its camera was stopped, replaced or lost); its pending check does nothing.
    func unwatchStream(lens name: String) {
        guard var watched = watchdogs[name] else { return }
        watched.generation += 1
        _ = watched.watchdog.handle(.stopped)
        watchdogs[name] = watched
    }

    private func scheduleWatchdogCheck(lens name: String, generation: Int, interval: MediaTime) {
        let due = serialContext.clock.now() + interval
        serialContext.schedule(at: due) { [weak self] in
            self?.checkWatchdog(lens: name, generation: generation, due: due)
        }
    }

    /// One check, due at `due`: one that comes more than the limit late means the process stood still, and the
    /// camera is given the whole limit again rather than restarted for a silence that was not its own.
    private func checkWatchdog(lens name: String, generation: Int, due: MediaTime) {
        guard !devicesStopped, var watched = watchdogs[name], watched.generation == generation else { return }
        let now = serialContext.clock.now(), frames = frameCounters[name]?.frames ?? 0
        let late = (try? now.subtracting(due)) ?? .zero
        let actions = watched.watchdog.handle(late > watched.watchdog.limit ? .resumed(at: now, frames: frames)
                                                                            : .check(now: now, frames: frames))
        watchdogs[name] = watched
        for action in actions { perform(action, lens: name, generation: generation) }
        scheduleWatchdogCheck(lens: name, generation: generation, interval: watched.watchdog.checkInterval)
    }

    private func perform(_ action: FreezeWatchdog.Action, lens name: String, generation: Int) {
        switch action {
        case .restart(let attempt, let reopen, let silence):
            let reopening = reopen && canReopen(lens: name)
            tellStep(.cameraRestarting(lens: name, attempt: attempt, of: FreezeWatchdog.maximumRestarts,
                                       reopen: reopening, silence: silence))
            if reopening {
                reopenCamera(lens: name, attempt: attempt, generation: generation)
            } else {
                restartStream(lens: name, attempt: attempt)
            }
        case .recovered(let restarts):
            tellStep(.cameraRecovered(lens: name, restarts: restarts))
        case .gaveUp(let restarts, let silence):
            tellStep(.cameraGaveUp(lens: name, restarts: restarts, silence: silence))
        }
    }

    /// A watchdog step is told, and noted in the sidecar of the clip recording now.
    private func tellStep(_ event: EngineEvent) {
        notify(event)
        report(.clipWarning(event.text))
    }

    /// Whether `lens`'s camera can be closed and opened again: a real camera whose node the hub knows.
    private func canReopen(lens name: String) -> Bool {
        guard opener != nil, lensNodes[name] != nil, let lens = rig.lens(named: name) else { return false }
        if case .camera = lens.source { return true }
        return false
    }

    /// Stops and starts `lens`'s camera on the device worker (for V4L2: `STREAMOFF`, buffers freed, `STREAMON`).
    private func restartStream(lens name: String, attempt: Int) {
        guard let camera = cameras[name] else { return }
        start(camera, lens: name, attempt: attempt, stoppingFirst: true)
    }

    /// Starts `camera` for `lens` on the device worker after a watchdog step; its settings are restored when it
    /// runs, a failure is told (the watchdog's next step comes after its backoff).
    private func start(_ camera: any Camera, lens name: String, attempt: Int, stoppingFirst: Bool) {
        startOnDeviceWorker(camera, lens: name, stoppingFirst: stoppingFirst) { hub, failure in
            hub.restartFailed(lens: name, attempt: attempt, reason: failure.reason)
        }
    }

    /// Stops `lens`'s camera, then closes and reopens its device through the opener, on the device worker.
    private func reopenCamera(lens name: String, attempt: Int, generation: Int) {
        guard let old = cameras[name], let opener, let node = lensNodes[name], let lens = rig.lens(named: name) else {
            return
        }
        deviceWorker.submit { [weak self, serialContext] in
            old.stop()
            do {
                let fresh = try opener.reopenCamera(old, node: node, for: lens)
                serialContext.schedule(at: .zero) { [weak self] in
                    self?.cameraReopened(fresh, replacing: old, lens: name, attempt: attempt, generation: generation)
                }
            } catch {
                let reason = "\(error)"
                serialContext.schedule(at: .zero) { [weak self] in
                    self?.restartFailed(lens: name, attempt: attempt, reason: reason)
                }
            }
        }
    }

    /// The reopened camera replaces the closed one and starts, unless the lens changed meanwhile: re-plugged or
    /// unplugged (the fresh camera is dropped), or stopped by the bank (it waits for the lens's next start).
    private func cameraReopened(_ fresh: any Camera, replacing old: any Camera, lens name: String, attempt: Int,
                                generation: Int) {
        guard !devicesStopped, let current = cameras[name], current === old else {
            deviceWorker.submit { fresh.stop() }
            return
        }
        cameras[name] = fresh
        guard watchdogs[name]?.generation == generation else { return }
        start(fresh, lens: name, attempt: attempt, stoppingFirst: false)
    }

    private func restartFailed(lens name: String, attempt: Int, reason: String) {
        tellStep(.cameraRestartFailed(lens: name, attempt: attempt, of: FreezeWatchdog.maximumRestarts, reason: reason))
    }
}
