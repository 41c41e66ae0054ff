/// Carries out commands from outside the serial context — a scene script's steps, or lines typed at the shell —
/// one at a time: `wait` lets time pass on the serial context (instantly on the simulated clock), every other command is
/// performed on the serial context at the time the caller gave it (read before the command is queued).
public final class ScriptRunner {
    private let controller: RigController
    private let serialContext: any SerialContext

    /// Called while a long `wait` passes (with where it stands) and once when it ends (`nil`: clear the line).
    /// Set by the composition root to draw a progress line; `nil` shows nothing. Called on the runner's thread.
    public var progress: ((WaitProgress?) -> Void)?

    /// A `wait` longer than this (or any wait of a script scripted longer than this) reports progress.
    public static let progressThreshold = MediaTime.seconds(2)
    /// A reporting `wait` passes in slices of this much session time, reporting after each.
    public static let progressSlice = MediaTime.milliseconds(250)

    /// While a script runs: the scripted time of its steps after the current one, and whether it reports progress.
    private var scriptContext: (laterWaits: MediaTime, reports: Bool)?

    public init(controller: RigController, serialContext: any SerialContext) {
        self.controller = controller
        self.serialContext = serialContext
    }

    /// The session-clock time now.
    public var now: MediaTime { serialContext.clock.now() }

    /// Performs one command given by `source` (told to the engine's listeners). `wait` returns a failed reply when it was interrupted (Ctrl-C).
    ///
    /// The command's time is read here, on the caller's clock, before the command is queued: the serial context
    /// may be busy (a backlog of frames, a remux), and the edge must fall when the user gave the command, not when
    /// the queue got to it.
    public func perform(_ command: Command, from source: CommandSource = .shell) -> RigController.Reply {
        if case .wait(let duration) = command {
            let reached = wait(duration)
            return reached ? .ok("waited \(DurationParser.clockString(duration))") : .failed("wait interrupted")
        }
        return perform(command, at: now, from: source)
    }

    /// Performs one command (not `wait`) at session-clock `time`, read by the caller before it is queued.
    private func perform(_ command: Command, at time: MediaTime, from source: CommandSource) -> RigController.Reply {
        let controller = self.controller
        return serialContext.perform { controller.execute(command, at: time, from: source) }
    }

    /// Lets `duration` pass (until `deadline` when given: a script's own clock); in slices that report progress when
    /// it is long enough to want a progress line.
    private func wait(_ duration: MediaTime, until deadline: MediaTime? = nil) -> Bool {
        let end = deadline ?? now + duration
        let reports = progress != nil && (scriptContext?.reports ?? (duration > Self.progressThreshold))
        guard reports, let progress else { return serialContext.advance(until: end) }
        defer { progress(nil) }
        let controller = self.controller
        let later = scriptContext?.laterWaits ?? .zero
        while true {
            let sliceEnd = MediaTime.min(end, now + Self.progressSlice)
            guard serialContext.advance(until: sliceEnd) else { return false }
            let current = now
            if current >= end { return true }
            let movieTime = serialContext.perform { controller.status.timer }
            progress(WaitProgress(sessionTime: current, movieTime: movieTime, scriptedTimeLeft: (end - current) + later))
        }
    }

    /// Runs `script` step by step, reporting each step's reply through `report` (step, reply), and returns how it
    /// ended. A failed step ends the script (like `set -e`) unless `onError` is `.continue` (the script's
    /// `on_error:` by default; `pausecam run --keep-going` passes `.continue`). An interrupted `wait`, or a clip
    /// that PauseCam had to stop (full disk, failed write), always ends it. The clip in progress is left to the
    /// caller to stop and save (`finishClip`).
    public func run(_ script: Rig.Script, onError: Rig.Script.OnError?,
                    report: (Command, RigController.Reply) -> Void) -> ScriptOutcome {
        let controller = self.controller
        serialContext.perform { controller.clips.scriptName = script.name }
        defer { serialContext.perform { controller.clips.scriptName = nil } }
        let policy = onError ?? script.onError
        let waits = script.steps.map { step -> MediaTime in
            if case .wait(let duration) = step { return duration }
            return .zero
        }
        var later = script.scriptedTime
        let reports = script.scriptedTime > Self.progressThreshold
        defer { scriptContext = nil }
        var failures: [ScriptStepFailure] = []
        // The script's own clock: each `wait` ends at the script's start plus the waits so far, so the time other
        // steps take (opening the encoder at `record`, a busy serial context) is not added to every scene. It
        // starts at the first step's time, the very reading its command gets: a clock read earlier (a moment the
        // thread lost to others before the step read its own) would end a `record`'s scene that much early.
        var scriptClock: MediaTime?
        for (index, step) in script.steps.enumerated() {
            later = later - waits[index]
            scriptContext = (laterWaits: later, reports: reports)
            let reply: RigController.Reply
            if case .wait(let duration) = step {
                let end = (scriptClock ?? now) + duration
                scriptClock = end
                reply = wait(duration, until: end)
                    ? .ok("waited \(DurationParser.clockString(duration))") : .failed("wait interrupted")
            } else {
                let time = now
                if scriptClock == nil { scriptClock = time }
                reply = perform(step, at: time, from: .script(name: script.name))
            }
            scriptContext = nil
            // A clip PauseCam had to stop (full disk, failed write) ends the script: its next steps would only
            // fail one by one. It interrupts a running (or the next) `wait` and makes clip commands fail, so it is
            // looked for after a failed step only: a look after every step would queue behind a busy serial context
            // and make the script late by that much at every step.
            if !reply.ok, let reason = serialContext.perform({ controller.clips.outcome.interruption }) {
                report(step, .failed("script ended: \(reason)"))
                return .clipInterrupted(reason: reason)
            }
            report(step, reply)
            if case .wait = step, !reply.ok { return .interrupted }
            guard !reply.ok else { continue }
            let mark = index < script.stepMarks.count ? script.stepMarks[index] : nil
            let failure = ScriptStepFailure(index: index, mark: mark, step: CommandParser.line(for: step),
                                            message: reply.message)
            if policy == .stop { return .stopped(at: failure) }
            failures.append(failure)
        }
        return .completed(failedSteps: failures)
    }

    /// The old entry point (the shell's `run NAME`): runs `script` under its own `on_error:` and returns true
    /// when every step ran.
    @discardableResult
    public func run(_ script: Rig.Script, report: (Command, RigController.Reply) -> Void) -> Bool {
        switch run(script, onError: nil, report: report) {
        case .completed: return true
        case .stopped, .interrupted, .clipInterrupted: return false
        }
    }

    /// Stops a clip still recording, and waits until it and every clip stopped before it are finished. Returns the finished clip.
    @discardableResult
    public func finishClip() -> Recorder.Clip? {
        let controller = self.controller
        // A group member's own commands wait here for their slot (at most the group's lead, never the broker's
        // round trip): a `stop` given just before lands where the group's does.
        if let landing = serialContext.perform({ controller.group?.ownCommandsLandBy }), landing > now {
            serialContext.advance(until: landing + RigController.stopGrace)
        }
        let state = serialContext.perform { controller.status.state }
        if state == .recording || state == .paused {
            // This clip alone, at once: a group's other members go on until the group's own `stop`.
            let time = now
            _ = serialContext.perform { controller.executeHere(.stop, at: time, from: .shell) }
        }
        // Let the samples captured before the stop arrive, then finish.
        serialContext.advance(until: now + RigController.stopGrace)
        serialContext.perform { controller.finalizeIfStopping() }
        // Finishing runs on a worker; this caller ends on the clip, so it waits for it (and any before it).
        controller.waitForSavedClips()
        return serialContext.perform { controller.clips.outcome.savedClip }
    }
}
