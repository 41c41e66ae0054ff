/// A rig with a `group:`: the recording commands given on this member go to every member (this one included) through
/// the `GroupMember`, which applies each at its slot on the shared grid (the composition root hands the applications
/// back to `execute(_:at:from:)` with `CommandSource.group`).
extension RigController {
    /// Publishes `command` to the group; the reply says when it takes effect. A `record --countdown` counts down
    /// here first (`countdownSeconds`), then the group's `record` is sent.
    func sendToGroup(_ command: Command, from source: CommandSource, via group: GroupMember) -> Reply {
        if let problem = GroupCommandMessage.sizeProblem(group: group.settings.name, from: group.host,
                                                         line: CommandParser.line(for: command), fps: group.rate) {
            return .failed("group \(group.settings.name): \(problem)")
        }
        if let refusal = clockRefusal(of: command) { return .failed(refusal) }
        var command = command
        if case .record(let name, let requested, _) = command {
            let seconds = countdownSeconds(requested, source: source)
            if seconds > 0 && countdown == nil { return beginCountdown(seconds: seconds, name: name,
                                                                        at: serialContext.clock.now()) }
            command = .record(name: name, countdown: nil)
        }
        do {
            let sent = try group.send(command)
            let message = sent.message
            if let reason = sent.appliedHereOnly {
                return .ok("\"\(message.command)\" applied on this member only: not sent to group "
                           + "\(group.settings.name) (\(reason))")
            }
            let lead = Double(message.atNanoseconds &- message.sentNanoseconds) / 1e9
            return .ok("sent to group \(group.settings.name): \(message.command) on every member in "
                       + String(format: "%.2f", lead) + " s")
        } catch {
            return .failed("group \(group.settings.name): \(error.description)")
        }
    }
}

extension RigController {
    /// Tells the user what the group said (`GroupNotice`) and puts what a clip's reader needs to know — a broker lost
    /// or back, a late or local-only command, a clock problem, an ignored message — into the clip's sidecar.
    public func groupNoticed(_ notice: GroupNotice) {
        serialContext.assertOnSerialContext()
        let told = EngineNotice.group(notice)
        let text = told.words
        // A command applied here alone was given here, and its reply says so: the clip's sidecar keeps it, the
        // user is not told twice.
        if case .appliedLocallyOnly = notice {} else { notify(.notice(told)) }
        switch notice {
        case .joined: break
        // Told before the `record` it is about is applied: it belongs to the clip that `record` starts.
        case .unsynchronisedRecord: _ = clips.note(text)
        default: clips.warnClip(text)
        }
    }

    /// Why `command` may not run here, nil when it may: on a clock the kernel calls unsynchronised, with
    /// `require_sync: true`, every command that would start a clip on this member is refused alike — `record`, and a
    /// `resume`, `chapter` or `toggle` while it is idle (which would join the group's recording as a `record`).
    func clockRefusal(of command: Command) -> String? {
        guard let why = group?.recordRefusal else { return nil }
        switch command {
        case .record: break
        case .resume, .chapter, .toggle: guard !clips.isRecording && countdown == nil else { return nil }
        default: return nil
        }
        return "\(CommandParser.line(for: command)) would start recording: \(why)"
    }

    /// A member that is not recording while its group is (it joined late, or came back from a crash) starts at the
    /// group's next scene boundary: a group's `resume NAME` or `chapter NAME` becomes `record NAME` here, and says so.
    /// Not after the group's own `stop` (`GroupMember.groupHasStopped`): the group is not recording then, and only its
    /// `record` starts a clip.
    func joiningGroupRecording(_ command: Command, from source: CommandSource) -> Command {
        guard case .group(let host) = source, !clips.isRecording, countdown == nil,
              !(group?.groupHasStopped ?? false) else { return command }
        let name: String?
        switch command {
        case .resume(let n), .chapter(let n): name = n
        default: return command
        }
        notify(.notice(.joiningGroupRecording(command: CommandParser.line(for: command), host: host)))
        return .record(name: name, countdown: nil)
    }

    /// This member's state for its retained status message (`GroupMember.updateStatus`).
    public var groupStatus: GroupMember.LocalStatus {
        let now = status
        return GroupMember.LocalStatus(state: now.state.rawValue, scene: now.scene, timer: now.timer,
                                       dropped: now.droppedFrames,
                                       diskLeftBytes: clips.storage?.availableBytes(at: clips.outputDirectory))
    }
}
