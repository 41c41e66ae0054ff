/// The countdown before a clip (`record --countdown 3`, the rig's `countdown:`): the seconds are told one by one as
/// events (the shell prints `3…`, `2…`, `1…` and rings the bell), and the clip starts when it reaches zero, at that
/// exact session-clock time, so the movie's first frame comes after the countdown and its duration leaves it out.
/// Timed on the serial context like every other timer, so the simulated clock counts down instantly in a `wait`.
///
/// While it runs no clip exists: `stop` or `toggle` (or Ctrl-C in the shell) cancels it with nothing recorded, a
/// second `record` is refused, and lens, zoom and exposure commands act at once, so the shot can still be framed.
extension RigController {
    /// A countdown in progress: what to record when it ends.
    struct PendingCountdown {
        var name: String?
        /// The session-clock time the clip starts.
        var end: MediaTime
        /// Whole seconds still to count.
        var secondsLeft: Int
        /// Tells this countdown's timers from those of one cancelled before it.
        var generation: Int
        /// The clip's `record --preroll`, if asked.
        var preroll: MediaTime? = nil
    }

    /// The seconds a `record` counts down: its own `--countdown`, else the rig's for a person (a script's timing is
    /// its own, and the engine's internal commands have no source).
    func countdownSeconds(_ requested: Int?, source: CommandSource?) -> Int {
        if let requested { return requested }
        guard let source else { return 0 }
        // A group's `record` lands on the group's slot; the sender's countdown, if any, ran before it was sent.
        if case .script = source { return 0 }
        if case .group = source { return 0 }
        return rig.countdown
    }

    /// Starts counting `seconds` down from `time`; `record(name:)` follows at the end. Refused while a clip records.
    func beginCountdown(seconds: Int, name: String?, at time: MediaTime) -> Reply {
        if let recorder = clips.recorder, recorder.session.state == .recording || recorder.session.state == .paused {
            return .failed("already recording (scene \(recorder.session.scenes.count)); use `stop` first")
        }
        guard bank.running.contains(bank.activeLens) else {
            return .failed("lens \(bank.activeLens) has no camera; choose another with `lens NAME`")
        }
        countdownGeneration += 1
        countdown = PendingCountdown(name: name, end: time + .seconds(Int64(seconds)),
                                     secondsLeft: seconds, generation: countdownGeneration)
        notify(.countdown(secondsLeft: seconds))
        scheduleCountdownTick(at: time + .seconds(1), generation: countdownGeneration)
        return .ok("recording in \(seconds) s\(name.map { " (scene 1 \"\($0)\")" } ?? ""); `stop` cancels")
    }

    /// Cancels the countdown in progress: nothing was recorded.
    func cancelCountdown() -> Reply {
        let left = countdown?.secondsLeft ?? 0
        countdown = nil
        return .ok("countdown cancelled with \(left) s left: nothing recorded")
    }

    private func scheduleCountdownTick(at time: MediaTime, generation: Int) {
        let controller = WeakSerialContextBound(self, serialContext: serialContext)
        serialContext.schedule(at: time) {
            guard let self = controller.object, var pending = self.countdown, pending.generation == generation else { return }
            pending.secondsLeft -= 1
            guard pending.secondsLeft > 0 else {
                self.countdown = nil
                // The command was told when it was given; its outcome is told as the countdown's end.
                // In a group the countdown was this member's; the `record` it ends in goes to every member.
                let record = Command.record(name: pending.name, countdown: 0, preroll: pending.preroll)
                let reply = self.group.map { self.sendToGroup(record, from: .shell, via: $0) }
                    ?? self.execute(record, at: pending.end)
                self.notify(.countdownEnded(message: reply.message, ok: reply.ok))
                return
            }
            self.countdown = pending
            self.notify(.countdown(secondsLeft: pending.secondsLeft))
            self.scheduleCountdownTick(at: time + .seconds(1), generation: generation)
        }
    }
}
