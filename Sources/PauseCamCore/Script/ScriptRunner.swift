/// Carries out commands from outside the serial context — a scene script's steps, or lines typed at the shell —
/// one at a time: `wait` lets time pass on the scheduler (instantly on the simulated clock), every other command is
/// performed on the serial context at the clock's current time.
public final class ScriptRunner {
    private let controller: RigController
    private let scheduler: any Scheduler

    public init(controller: RigController, scheduler: any Scheduler) {
        self.controller = controller
        self.scheduler = scheduler
    }

    /// The session-clock time now.
    public var now: MediaTime { scheduler.clock.now() }

    /// Performs one command. `wait` returns a failed reply when it was interrupted (Ctrl-C).
    public func perform(_ command: Command) -> RigController.Reply {
        if case .wait(let duration) = command {
            let reached = scheduler.advance(until: now + duration)
            return reached ? .ok("waited \(DurationParser.clockString(duration))") : .failed("wait interrupted")
        }
        let controller = self.controller
        let scheduler = self.scheduler
        return scheduler.perform { controller.execute(command, at: scheduler.clock.now()) }
    }

    /// Runs `script` step by step, reporting each step's reply through `report` (step, reply). A failed step is
    /// reported and the script goes on, except an interrupted `wait` or a clip that PauseCam had to stop (full
    /// disk, failed write), which end the script. Returns false when the script was interrupted.
    @discardableResult
    public func run(_ script: Rig.Script, report: (Command, RigController.Reply) -> Void) -> Bool {
        controller.scriptName = script.name
        defer { controller.scriptName = nil }
        let controller = self.controller
        for step in script.steps {
            let reply = perform(step)
            // A clip PauseCam had to stop (full disk, failed write) ends the script: its next steps would only
            // fail one by one. (It also interrupts a running `wait`.)
            if let reason = scheduler.perform({ controller.clipInterruption }) {
                report(step, .failed("script ended: \(reason)"))
                return false
            }
            report(step, reply)
            if case .wait = step, !reply.ok { return false }
        }
        return true
    }

    /// Stops a clip still recording, and waits until the clip being stopped is finished. Returns the finished clip.
    @discardableResult
    public func finishClip() -> Recorder.Clip? {
        let controller = self.controller
        let state = scheduler.perform { controller.status.state }
        if state == .recording || state == .paused {
            _ = perform(.stop)
        }
        // Let the samples captured before the stop arrive, then finish.
        scheduler.advance(until: now + RigController.stopGrace)
        return scheduler.perform { () -> Recorder.Clip? in
            controller.finalizeIfStopping()
            return controller.lastClip
        }
    }
}
