
/// One machine of a group (README, "Groups"): publishes the recording commands given here to the whole group and
/// applies every command of the group — its own included, exactly once — at the command's effective time on the
/// shared clock, mapped onto this machine's capture clock and snapped to the group's frame grid, so every member's
/// boundaries fall on the same slot index.
///
/// A command given here is handed to `execute` as soon as it is published, for its slot: the member never waits
/// for the broker to send its own command back (a slow or silent broker cannot delay or lose it here), and it
/// ignores that copy when it comes. What another publisher claims about this member's name or numbers therefore
/// never decides what this member does with its own commands.
///
/// Time comes in as values (`ClockReading`, `ClockSynchronisation`) from closures the composition root gives; the
/// member reads no clock and opens nothing. It applies a command through `execute`, on the thread that delivered
/// it (the bus's), with the capture time to apply it at: the owner hops onto its serial context and runs the
/// command at that time (`SerialContext.schedule(at:)`). Notices (`GroupNotice`) go to `notify`, on the same
/// threads. Neither closure is called with the member's lock held, so they may call back into the member.
public final class GroupMember: Sendable {
    /// How old a command's instant may be and still count as fresh: a sequence number at or below its sender's
    /// highest is taken only from a fresh message not seen lately (`GroupSequenceFilter`), so a captured message
    /// played back later than this is refused, while a stranger's inflated number cannot silence the sender.
    public static let replayWindowNanoseconds: Int64 = 10_000_000_000

    /// A command to carry out on this member's rig.
    public struct Application: Sendable, Equatable {
        /// The command, parsed by the shell's parser.
        public var command: Command
        /// The line as published.
        public var line: String
        /// The sender's name.
        public var from: String
        /// The sender's sequence number.
        public var seq: UInt64
        /// Its slot on the group's grid.
        public var slot: Int64
        /// When to apply it on the capture clock: the slot's time on `GroupMember.phaseAnchor`'s grid, or now for a
        /// late or local-only command.
        public var captureTime: MediaTime
        /// How late it came (nanoseconds), `nil` when on time.
        public var lateByNanoseconds: Int64?
        /// It was not published (the broker is away) and applies to this member alone.
        public var localOnly: Bool
    }

    /// The member's own state as the owner knows it, for its retained status message.
    public struct LocalStatus: Sendable, Equatable {
        /// `idle`, `recording` or `paused`.
        public var state: String
        /// The current scene's number (0 while idle).
        public var scene: Int
        /// The movie's timer.
        public var timer: MediaTime
        /// Frames dropped in the current clip.
        public var dropped: Int
        /// Free bytes where the movies go, `nil` when unknown.
        public var diskLeftBytes: Int64?
        public init(state: String = "idle", scene: Int = 0, timer: MediaTime = .zero, dropped: Int = 0,
                    diskLeftBytes: Int64? = nil) {
            self.state = state
            self.scene = scene
            self.timer = timer
            self.dropped = dropped
            self.diskLeftBytes = diskLeftBytes
        }
    }

    /// Why a command given here was not published.
    public enum SendError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Only the recording commands go to a group; the others stay on the member that got them.
        case notGroupCommand(String)
        /// `record` while the kernel says the clock is unsynchronised, with `require_sync: true`.
        case clockUnsynchronised(String)
        public var description: String {
            switch self {
            case .notGroupCommand(let word):
                let words = GroupMessageDecoder.groupCommandWords.sorted().joined(separator: ", ")
                return "\"\(word)\" stays on this member; only \(words) go to the group"
            case .clockUnsynchronised(let message): return message
            }
        }
    }

    /// A command given here, as `send` handled it.
    public struct Sent: Sendable, Equatable {
        /// The message, as published (or as it would have been).
        public var message: GroupCommandMessage
        /// Why it was not published and applies on this member only (the broker is away, publishing failed);
        /// `nil` when it went to the group.
        public var appliedHereOnly: String?
    }

    private struct State {
        var mapping: SharedClockMapping
        var phaseAnchor: MediaTime
        var filter = GroupSequenceFilter()
        var drops = GroupDropCounts()
        var log: [GroupCommandRecord] = []
        var members: [String: GroupStatusMessage] = [:]
        /// What strangers' messages may cost (commands carried out, warnings told).
        var budget = GroupMessageBudget()
        /// The last recording-state command of the group handed out was `stop` (not `record` since).
        var groupStopped = false
        var connected = false
        var connections = 0
        /// The bus said how the first connection went (connected, or failed): `whenAnswered` runs at once.
        var answered = false
        var answerWaiters: [@Sendable () -> Void] = []
        /// The loss of the broker, or that it cannot be reached, was told since the last connection (once each
        /// time: the bus may report every failed attempt).
        var toldUnreachable = false
        /// This member's own sequence numbers are `firstSeq..<nextSeq`.
        let firstSeq: UInt64
        var nextSeq: UInt64
        /// The latest capture time at which a command given here was handed to `execute`.
        var ownCommandsLandBy: MediaTime?
        var status = LocalStatus()
        var health: ClockHealth = .ok
        var stopped = false
    }

    /// The rig's `group:`.
    public let settings: GroupSettings
    /// This member's name in the group (a topic level).
    public let host: String
    /// The rig's output rate: the group's grid.
    public let rate: FrameRate
    /// The group's frame grid on the shared clock.
    public let grid: EpochGrid
    private let topics: GroupTopics
    private let decoder: GroupMessageDecoder
    private let bus: any GroupBus
    private let readClocks: @Sendable () -> ClockReading
    private let readClockStatus: @Sendable () -> ClockSynchronisation?
    private let execute: @Sendable (Application) -> Void
    private let notify: @Sendable (GroupNotice) -> Void
    private let state: Guarded<State>

    /// A member of `settings.name` named `host`, recording at `rate`, talking through `bus`. `readClocks` reads the
    /// shared and the capture clock together; `readClockStatus` the kernel's view of the clock (`nil`: unknown,
    /// taken as fine). The first reading anchors the member's grid (`phaseAnchor`).
    public init(bus: any GroupBus, settings: GroupSettings, host: String, rate: FrameRate,
                readClocks: @escaping @Sendable () -> ClockReading,
                readClockStatus: @escaping @Sendable () -> ClockSynchronisation?,
                execute: @escaping @Sendable (Application) -> Void,
                notify: @escaping @Sendable (GroupNotice) -> Void) {
        self.bus = bus
        self.settings = settings
        self.host = host
        self.rate = rate
        grid = EpochGrid(rate: rate)
        topics = settings.topics
        decoder = GroupMessageDecoder(topics: settings.topics)
        self.readClocks = readClocks
        self.readClockStatus = readClockStatus
        self.execute = execute
        self.notify = notify
        var mapping = SharedClockMapping()
        let reading = readClocks()
        _ = mapping.update(reading)
        let anchor = Self.phaseAnchor(mapping, grid)
        let firstSeq = Self.firstSequenceNumber(realtimeNanoseconds: reading.realtimeNanoseconds)
        state = Guarded(State(mapping: mapping, phaseAnchor: anchor, firstSeq: firstSeq, nextSeq: firstSeq))
    }

    /// The capture time of the group grid's slot 0: the anchor to give the output clock (`OutputClock.phaseAnchor`)
    /// so its slots fall where the group's do. It moves only when the shared clock steps (`GroupNotice.clockStepped`).
    public var phaseAnchor: MediaTime { state.withLock { $0.phaseAnchor } }

    /// Every group command this member saw, in arrival order (the sidecar's `group.commands`).
    public var commandLog: [GroupCommandRecord] { state.withLock { $0.log } }

    /// The messages ignored, per reason (duplicates included).
    public var drops: GroupDropCounts { state.withLock { $0.drops } }

    /// The latest status of every other member seen, by host (`ctl --group status`, the sidecar's members).
    public var members: [String: GroupStatusMessage] { state.withLock { $0.members } }

    /// True while the broker connection is up.
    public var isConnected: Bool { state.withLock { $0.connected && !$0.stopped } }

    /// True when the last of the group's `record` and `stop` this member handed out was `stop`: the group is not
    /// recording as far as it knows, so a `resume` or `chapter` that comes after is no cue to join it.
    public var groupHasStopped: Bool { state.withLock { $0.groupStopped } }

    /// True once `stop()` began: the member applies nothing more, so an application already scheduled by its owner
    /// should not run either.
    public var hasStopped: Bool { state.withLock { $0.stopped } }

    /// The capture time by which every command given on this member has been handed to `execute` for its slot
    /// (`nil`: none was given). A session that ends lets them land first: they wait for their slot here, at most the
    /// group's lead, never for the broker.
    public var ownCommandsLandBy: MediaTime? { state.withLock { $0.ownCommandsLandBy } }

    /// What a session is about to do when it starts, for `brokerWait(before:)`.
    public enum Session: Sendable, Equatable {
        /// Commands typed or piped, one at a time (`pausecam shell`).
        case shell
        /// A scene script, timed from its first step (`pausecam run`).
        case script
    }

    /// How long a session waits, before its first command, for the broker's first answer (`whenAnswered`). A script
    /// waits, up to 5 s, so that its first `record` reaches the whole group: its steps are timed from its start, so
    /// the wait costs it nothing. A shell does not wait: a line given to it is carried out at once, on this member
    /// alone while the broker has not answered (recording on a member never waits for the bus).
    public static func brokerWait(before session: Session) -> MediaTime {
        switch session {
        case .shell: return .zero
        case .script: return .seconds(5)
        }
    }

    /// Calls `body` once the bus has said how the first connection went — connected, refused, unreachable — at
    /// once if it has, else on the bus's thread when it does. Never with the member's lock held.
    public func whenAnswered(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if !s.answered { s.answerWaiters.append(body) }
            return s.answered
        }
        if now { body() }
    }

    /// Connects to the broker (the bus reconnects by itself after a loss); the will marks this member offline.
    public func start() throws {
        let reading = reading()
        // Said at once, not at the first `record`: a clock that would refuse it is fixed before the take.
        let health = clockHealth()
        if health != .ok {
            state.withLock { $0.health = health }
            notify(.clockHealth(health))
        }
        let will = GroupStatusMessage.offline(host: host, seenNanoseconds: reading.realtimeNanoseconds,
                                              fps: GroupCommandMessage.text(of: rate))
        try bus.start(subscriptions: [topics.command, topics.everyStatus],
                      will: GroupBusMessage(topic: topics.status(of: host), payload: will.payload(), retained: true),
                      events: { [weak self] event in self?.handle(event) })
    }

    /// Publishes the offline status (a goodbye, not the will) and stops the bus; nothing is applied after it.
    public func stop() {
        let wasConnected = state.withLock { s in
            defer { s.stopped = true }
            return s.connected && !s.stopped
        }
        if wasConnected {
            let offline = GroupStatusMessage.offline(host: host, seenNanoseconds: reading().realtimeNanoseconds,
                                                     fps: GroupCommandMessage.text(of: rate))
            try? bus.publish(GroupBusMessage(topic: topics.status(of: host), payload: offline.payload(), retained: true))
        }
        bus.stop()
    }

    /// Publishes a recording command given on this member to the whole group, to take effect `settings.lead` from
    /// now on the group's next slot; returns the message. The command is handed to `execute` here at once, for that
    /// slot, as every other member applies it when it arrives. While the broker is away it is not published at all
    /// (never delivered later): it applies here at once, and `notify` says so; the same when publishing fails.
    @discardableResult
    public func send(_ command: Command) throws(SendError) -> Sent {
        guard GroupMessageDecoder.isGroupCommand(command) else { throw .notGroupCommand(command.word) }
        let line = CommandParser.line(for: command)
        let now = reading()
        let health = clockHealth()
        if case .record = command, case .unsynchronised(let why) = health, settings.requireSync {
            throw .clockUnsynchronised(why)
        }
        let at = grid.effectiveTime(now: now.realtimeNanoseconds, lead: settings.lead)
        let (message, connected) = state.withLock { s in
            let seq = s.nextSeq
            s.nextSeq += 1
            let message = GroupCommandMessage(group: settings.name, from: host, seq: seq, command: line,
                                              atNanoseconds: at, sentNanoseconds: now.realtimeNanoseconds, fps: rate)
            return (message, s.connected)
        }
        // Not published while the broker is away: a client would keep it and send it once the broker is back, and
        // the others would apply, late, what this member applied alone long before.
        var problem: String? = connected ? nil : "the group's broker is away"
        if problem == nil {
            do {
                try bus.publish(GroupBusMessage(topic: topics.command, payload: message.payload()))
            } catch {
                problem = "publishing failed: \(error)"
            }
        }
        if let problem {
            applyLocally(command, message: message, now: now, reason: problem)
        } else {
            applyOwn(command, message: message, now: now, health: health)
        }
        return Sent(message: message, appliedHereOnly: problem)
    }

    /// Publishes this member's status (retained) now and after every reconnection. The owner calls it every second
    /// or so: it also tells, in one line, the warnings about ignored messages held back meanwhile.
    public func updateStatus(_ status: LocalStatus) {
        let now = SharedClockMapping.nanoseconds(readClocks().capture)
        let (connected, held) = state.withLock { s in
            s.status = status
            return (s.connected && !s.stopped, s.stopped ? nil : s.budget.heldWarnings(atNanoseconds: now))
        }
        if let held { notify(.heldBack(count: held)) }
        if connected { publishStatus() }
    }

    // MARK: Events

    /// One event from the bus, on the bus's thread.
    private func handle(_ event: GroupBusEvent) {
        switch event {
        case .connected:
            let (first, waiters) = state.withLock { s -> (Bool?, [@Sendable () -> Void]) in
                let waiters = answer(&s)
                guard !s.stopped else { return (nil, waiters) }
                s.connected = true
                s.toldUnreachable = false
                s.connections += 1
                return (s.connections == 1, waiters)
            }
            for waiter in waiters { waiter() }
            guard let first else { return }
            notify(first ? .joined(group: settings.name, broker: settings.broker.description) : .brokerBack)
            publishStatus()
        case .lost(let reason):
            // Told once per loss: when the connection goes, or when none could be made since the last one.
            let (notice, waiters) = state.withLock { s -> (GroupNotice?, [@Sendable () -> Void]) in
                let waiters = answer(&s)
                let wasConnected = s.connected
                s.connected = false
                guard !s.stopped else { return (nil, waiters) }
                guard !s.toldUnreachable else { return (nil, waiters) }
                s.toldUnreachable = true
                return (wasConnected ? .brokerLost(reason: reason) : .brokerUnreachable(reason: reason), waiters)
            }
            for waiter in waiters { waiter() }
            if let notice { notify(notice) }
        case .message(let message):
            guard !state.withLock({ $0.stopped }) else { return }
            switch decoder.decode(message) {
            case .dropped(let reason):
                drop(reason, detail: "\(message.payload.count) bytes on \(message.topic)")
            case .status(let status):
                received(status, retained: message.retained)
            case .command(let decoded, let command):
                received(decoded, command)
            }
        }
    }

    /// Counts an ignored message, and tells it unless the warnings' budget holds it back (told later as a count).
    private func drop(_ reason: GroupDropReason, detail: @autoclosure () -> String) {
        let now = SharedClockMapping.nanoseconds(readClocks().capture)
        let tells = state.withLock { s in
            s.drops.count(reason)
            return s.budget.tellsWarning(atNanoseconds: now)
        }
        if tells { notify(.dropped(reason, detail: detail())) }
    }

    private func received(_ status: GroupStatusMessage, retained: Bool) {
        guard status.host != host else { return }
        let ours = GroupCommandMessage.text(of: rate)
        // A status is a hint, never a rule: anyone can publish one (retained, for members to come). This member's
        // own rate rules what it records; another rate only means the two ignore each other's commands.
        let notice = state.withLock { s -> GroupNotice? in
            let known = s.members[status.host]
            s.members[status.host] = status
            guard status.online, let theirs = status.fps, theirs != ours, known?.fps != theirs || !(known?.online ?? false)
            else { return nil }
            return .rateMismatch(host: status.host, theirs: theirs, ours: ours, ourHost: host)
        }
        if let notice { notify(notice) }
    }

    private func received(_ message: GroupCommandMessage, _ command: Command) {
        // This member's own commands were applied when they were sent: the broker's copy is old news.
        let own = message.from == host && state.withLock { s in (s.firstSeq..<s.nextSeq).contains(message.seq) }
        if own { return }
        let ours = GroupCommandMessage.text(of: rate)
        guard message.fps == ours else {
            drop(.otherRate, detail: "\(message.from) records at \(message.fps) fps, \(host) at \(ours) fps: its "
                 + "\"\(message.command)\" is ignored")
            return
        }
        let now = reading()
        let health = clockHealth()
        var notices: [GroupNotice] = []
        var overRate = false
        let application = state.withLock { s -> Application? in
            let fresh = message.atNanoseconds >= now.realtimeNanoseconds - Self.replayWindowNanoseconds
            guard s.filter.admit(from: message.from, seq: message.seq, fresh: fresh) else {
                s.drops.count(.duplicate)
                return nil
            }
            guard s.budget.takesCommand(atNanoseconds: SharedClockMapping.nanoseconds(now.capture)) else {
                overRate = true
                return nil
            }
            return accept(message, command, now: now, health: health, in: &s, notices: &notices)
        }
        if overRate {
            drop(.overRate, detail: "\(message.from)'s \"\(message.command)\": more than "
                 + "\(GroupMessageBudget.commandsPerSecond) group commands a second")
        }
        for notice in notices { notify(notice) }
        if let application { execute(application) }
    }

    /// The command `message` let through, logged in `s`: its application (at its slot, or now when late), or `nil`
    /// when it is refused here (`record` on an unsynchronised clock with `require_sync: true`). Under the lock.
    private func accept(_ message: GroupCommandMessage, _ command: Command, now: ClockReading, health: ClockHealth,
                        in s: inout State, notices: inout [GroupNotice]) -> Application? {
        let slot = grid.slot(atOrAfter: message.atNanoseconds)
        let at = grid.instant(ofSlot: slot) ?? message.atNanoseconds
        if health != s.health {
            s.health = health
            notices.append(.clockHealth(health))
        }
        var record = GroupCommandRecord(from: message.from, seq: message.seq, command: message.command,
                                        atNanoseconds: at, slot: slot, arrivedNanoseconds: now.realtimeNanoseconds,
                                        appliedAt: nil, outcome: .onTime)
        if case .record = command, case .unsynchronised(let why) = health {
            notices.append(.unsynchronisedRecord(applied: !settings.requireSync, reason: why))
            if settings.requireSync {
                record.outcome = .refusedUnsynchronised
                s.log.append(record)
                return nil
            }
        }
        switch command {
        case .stop: s.groupStopped = true
        case .record: s.groupStopped = false
        default: break
        }
        var application = Application(command: command, line: message.command, from: message.from,
                                      seq: message.seq, slot: slot, captureTime: now.capture,
                                      lateByNanoseconds: nil, localOnly: false)
        if now.realtimeNanoseconds > at {
            record.outcome = .late
            record.lateByNanoseconds = now.realtimeNanoseconds &- at
            application.lateByNanoseconds = record.lateByNanoseconds
        } else {
            application.captureTime = OutputClock.slotTime(anchor: s.phaseAnchor, index: slot,
                                                           frameDuration: rate.frameDuration)
        }
        record.appliedAt = application.captureTime
        s.log.append(record)
        if record.outcome == .late { notices.append(.late(record)) }
        return application
    }

    // MARK: Internals

    /// Marks the first answer come; returns the `whenAnswered` bodies to call (outside the lock).
    private func answer(_ s: inout State) -> [@Sendable () -> Void] {
        guard !s.answered else { return [] }
        s.answered = true
        defer { s.answerWaiters = [] }
        return s.answerWaiters
    }

    /// A command given here and published: applied here for its slot now, as the others apply it when it arrives.
    private func applyOwn(_ command: Command, message: GroupCommandMessage, now: ClockReading, health: ClockHealth) {
        var notices: [GroupNotice] = []
        let application = state.withLock { s -> Application? in
            guard !s.stopped else { return nil }
            let application = accept(message, command, now: now, health: health, in: &s, notices: &notices)
            if let application { s.ownCommandsLandBy = MediaTime.max(s.ownCommandsLandBy ?? application.captureTime,
                                                                     application.captureTime) }
            return application
        }
        for notice in notices { notify(notice) }
        if let application { execute(application) }
    }

    /// A command given here that could not be published (the broker is away): applied here now. A later delivery
    /// of it (the client's queue, once the broker is back) is this member's own, and ignored here.
    private func applyLocally(_ command: Command, message: GroupCommandMessage, now: ClockReading, reason: String) {
        let slot = grid.slot(containing: now.realtimeNanoseconds)
        let application = state.withLock { s -> Application in
            s.log.append(GroupCommandRecord(from: message.from, seq: message.seq, command: message.command,
                                            atNanoseconds: message.atNanoseconds, slot: slot,
                                            arrivedNanoseconds: now.realtimeNanoseconds, appliedAt: now.capture,
                                            outcome: .localOnly))
            return Application(command: command, line: message.command, from: message.from, seq: message.seq,
                               slot: slot, captureTime: now.capture, lateByNanoseconds: nil, localOnly: true)
        }
        notify(.appliedLocallyOnly(command: message.command, reason: reason))
        execute(application)
    }

    /// Why no clip may start on this member now, nil when one may: the kernel calls the clock unsynchronised and
    /// the rig says `require_sync: true`. Every command that would start a clip here (`record`, and a `resume`,
    /// `chapter` or `toggle` on an idle member, which joins the group's recording) is refused by this one rule.
    public var recordRefusal: String? {
        if case .unsynchronised(let why) = clockHealth(), settings.requireSync { return why }
        return nil
    }

    /// The kernel's view of the clock judged at the rig's rate (fine when unknown); the advice to allow an
    /// unsynchronised clock is left out when the rig already does.
    private func clockHealth() -> ClockHealth {
        readClockStatus().map { ClockHealth.judge($0, rate: rate, requireSync: settings.requireSync) } ?? .ok
    }

    /// Reads both clocks and passes the pair through the mapping; a step re-anchors the grid and is told.
    private func reading() -> ClockReading {
        let reading = readClocks()
        let stepped = state.withLock { s -> GroupNotice? in
            guard case .stepped(let by) = s.mapping.update(reading) else { return nil }
            s.phaseAnchor = Self.phaseAnchor(s.mapping, grid)
            return .clockStepped(byNanoseconds: by, phaseAnchor: s.phaseAnchor)
        }
        if let stepped { notify(stepped) }
        return reading
    }

    private func publishStatus() {
        let now = reading()
        let clockError = readClockStatus().map { $0.estimatedErrorMicroseconds &* 1000 }
        let status = state.withLock { $0.status }
        let message = GroupStatusMessage(host: host, state: status.state, scene: status.scene,
                                         timer: status.timer.seconds, dropped: status.dropped,
                                         diskLeftBytes: status.diskLeftBytes, seenNanoseconds: now.realtimeNanoseconds,
                                         clockErrorNanoseconds: clockError, online: true,
                                         fps: GroupCommandMessage.text(of: rate))
        try? bus.publish(GroupBusMessage(topic: topics.status(of: host), payload: message.payload(), retained: true))
    }

    /// Publishes each lens's tally, retained, on its topic (`GroupTopics.tally(of:lens:)`), while the broker is
    /// connected and the member has not stopped; a lens whose name cannot be a topic level is left out.
    public func publishTally(_ entries: [TallyBoard.Entry]) {
        guard state.withLock({ $0.connected && !$0.stopped }) else { return }
        for entry in entries {
            guard let topic = topics.tally(of: host, lens: entry.lens) else { continue }
            try? bus.publish(GroupBusMessage(topic: topic, payload: Array(entry.state.rawValue.utf8), retained: true))
        }
    }

    /// The first `seq` of a sender starting at `realtimeNanoseconds`: the clock in microseconds, so a member that
    /// restarts, or one `ctl --group` after another, never reuses a number the group has seen.
    public static func firstSequenceNumber(realtimeNanoseconds: Int64) -> UInt64 {
        UInt64(clamping: realtimeNanoseconds / 1000)
    }

    /// The capture time of the grid's epoch on the mapping's anchored offset.
    private static func phaseAnchor(_ mapping: SharedClockMapping, _ grid: EpochGrid) -> MediaTime {
        mapping.capture(forRealtime: grid.epochNanoseconds) ?? .zero
    }
}
