extension GroupMember {
    /// The `group` block of a clip's sidecar, derived from what this member knows now: the member, the group's grid
    /// and lead, the members seen, the messages ignored, and the clip's commands in arrival order.
    ///
    /// The clip's commands begin with the one applied at `start` (the capture time of its `record`, or of the
    /// `resume` or `chapter` a member joining a recording group starts with); what arrived before it belongs to earlier
    /// clips. Once the clip is stopped at `stop`, a command applied after that belongs to the next clip and is left
    /// out (a `record` sent right after a `stop` arrives before the stopped clip is finished). A command never applied
    /// (refused) stays where it arrived. With no command applied at `start`, every command seen is the clip's.
    public func sidecarGroup(clipStartedAt start: MediaTime, stoppedAt stop: MediaTime?) -> Sidecar.Group {
        let log = commandLog
        let first = log.firstIndex { $0.appliedAt == start } ?? 0
        let drops = drops
        let dropped = Dictionary(uniqueKeysWithValues: GroupDropReason.allCases.compactMap { reason in
            drops[reason] > 0 ? (reason.rawValue, drops[reason]) : nil
        })
        return Sidecar.Group(
            name: settings.name, host: host, epochNs: grid.epochNanoseconds, lead: settings.lead.seconds,
            membersSeen: members.keys.sorted(),
            commands: log[first...].filter { record in
                guard let stop, let applied = record.appliedAt else { return true }
                return applied <= stop
            }.map {
                Sidecar.Group.Command(from: $0.from, seq: $0.seq, command: $0.command, atNs: $0.atNanoseconds,
                                      slot: $0.slot, arrivedNs: $0.arrivedNanoseconds, outcome: $0.outcome.rawValue,
                                      lateBy: Double($0.lateByNanoseconds) / 1e9)
            },
            dropped: dropped.isEmpty ? nil : dropped)
    }
}
