import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// Two and three members on one in-memory broker, each with its own capture clock: a command given on one member
/// reaches all (the sender at once), each applies it once at the same slot of the group's grid (its own capture
/// time for that slot), duplicates and replays are applied once, a late command is applied on arrival and
/// reported, a member at another output rate is warned and ignored, floods are bounded, and the broker's absence
/// is survived.
final class GroupMemberTests: XCTestCase {
    /// The true time of the test world (CLOCK_REALTIME as a perfect server has it), advanced by hand.
    final class World: Sendable {
        let now = Guarded<Int64>(1_718_000_000_000_000_000)
        func advance(nanoseconds: Int64) { now.withLock { $0 += nanoseconds } }
    }

    /// A value shared with the member's closures.
    final class Cell<Value: Sendable>: Sendable {
        private let value: Guarded<Value>
        init(_ value: Value) { self.value = Guarded(value) }
        func withLock<R>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
    }

    /// One member with what it applied and told.
    final class Member: Sendable {
        let member: GroupMember
        let applied = Guarded<[GroupMember.Application]>([])
        let notices = Guarded<[GroupNotice]>([])
        /// Its capture clock is the true time minus this; its realtime is the true time plus `clockError`.
        let captureOffset: Int64
        let clockError: Cell<Int64>
        let kernel: Cell<ClockSynchronisation?>
        let bus: VirtualGroupBus

        init(broker: VirtualGroupBroker, world: World, host: String, rate: FrameRate = FrameRate(30),
             captureOffset: Int64, clockError: Int64 = 0, settings: GroupSettings? = nil) {
            self.captureOffset = captureOffset
            self.clockError = Cell(clockError)
            kernel = Cell(ClockSynchronisation(unsynchronised: false, maximumErrorMicroseconds: 1000,
                                             estimatedErrorMicroseconds: 50))
            bus = broker.makeBus()
            let box = Guarded<Member?>(nil)
            let errorBox = self.clockError
            let kernelBox = kernel
            member = GroupMember(
                bus: bus, settings: settings ?? GroupMemberTests.settings, host: host, rate: rate,
                readClocks: {
                    let t = world.now.withLock { $0 }
                    return ClockReading(realtimeNanoseconds: t + errorBox.withLock { $0 },
                                        capture: .nanoseconds(t - captureOffset))
                },
                readClockStatus: { kernelBox.withLock { $0 } },
                execute: { application in box.withLock { $0 }?.applied.withLock { $0.append(application) } },
                notify: { notice in box.withLock { $0 }?.notices.withLock { $0.append(notice) } })
            box.withLock { $0 = self }
        }

        var appliedNow: [GroupMember.Application] { applied.withLock { $0 } }
        var noticesNow: [GroupNotice] { notices.withLock { $0 } }
    }

    static let settings = GroupSettings(name: "studio", broker: GroupBrokerAddress("mqtt://broker.local")!, host: nil)

    private var broker = VirtualGroupBroker()
    private let world = World()

    private func members(_ hosts: [(String, Int64)]) throws -> [Member] {
        let members = hosts.map { Member(broker: broker, world: world, host: $0.0, captureOffset: $0.1) }
        for m in members { try m.member.start() }
        broker.deliver()
        return members
    }

    // MARK: Commands reach all, on one slot

    func testACommandReachesEveryMemberOnceOnTheSameSlotOfTheGroupsGrid() throws {
        // Capture clocks that have nothing in common (boot times differ), one realtime 3 ms off (within ¼ frame).
        let group = try members([("cam-a", 1_717_999_000_000_000_000), ("cam-b", 1_717_990_000_000_000_000),
                                 ("cam-c", 1_718_000_000_000_000_000 - 7_000_000_000)])
        group[1].clockError.withLock { $0 = 3_000_000 }
        let message = try group[0].member.send(.record(name: "Interview")).message
        // The effective time: on the grid, at least the lead ahead.
        let grid = EpochGrid(rate: FrameRate(30))
        let sent = world.now.withLock { $0 }
        XCTAssertEqual(grid.snapped(message.atNanoseconds), message.atNanoseconds)
        XCTAssertGreaterThanOrEqual(message.atNanoseconds, sent + 250_000_000)
        XCTAssertLessThan(message.atNanoseconds, sent + 250_000_000 + 33_333_334)
        XCTAssertEqual(message.command, "record Interview")
        // The sender hands its own command over at once, for its slot; the others when the broker delivers it.
        XCTAssertEqual(group[0].appliedNow.count, 1)
        XCTAssertTrue(group[1].appliedNow.isEmpty)
        XCTAssertEqual(group[0].member.ownCommandsLandBy, group[0].appliedNow.first?.captureTime)
        world.advance(nanoseconds: 20_000_000)
        broker.deliver()
        let slot = grid.slot(atOrAfter: message.atNanoseconds)
        for m in group {
            let applied = m.appliedNow
            XCTAssertEqual(applied.count, 1, "\(m.member.host)")
            guard let a = applied.first else { continue }
            XCTAssertEqual(a.command, .record(name: "Interview"))
            XCTAssertEqual(a.slot, slot, "\(m.member.host) on another slot")
            XCTAssertNil(a.lateByNanoseconds)
            XCTAssertEqual(a.captureTime, OutputClock.slotTime(anchor: m.member.phaseAnchor, index: slot,
                                                               frameDuration: FrameRate(30).frameDuration))
            // On its own capture clock the slot is at the command's shared time (less its clock's error), to 1 ns.
            let expected = message.atNanoseconds - m.clockError.withLock { $0 } - m.captureOffset
            XCTAssertLessThanOrEqual(abs(SharedClockMapping.nanoseconds(a.captureTime) - expected), 1,
                                     "\(m.member.host) applies at another time")
            XCTAssertEqual(m.member.commandLog.map(\.outcome), [.onTime])
            // Its output clock, anchored on the member's phase, starts the movie exactly at that slot, whatever
            // its camera's phase.
            var clock = OutputClock(frameDuration: FrameRate(30).frameDuration, phaseAnchor: m.member.phaseAnchor)
            clock.restart(at: a.captureTime)
            let cameraPhase = a.captureTime + .milliseconds(Int64(m.captureOffset % 29))
            let slots = clock.offer(frame(cameraPhase)) + clock.offer(frame(cameraPhase + .milliseconds(33)))
            XCTAssertEqual(slots.first?.frame.pts, a.captureTime, "\(m.member.host)'s movie starts elsewhere")
        }
    }

    func testDuplicatesAndReplaysAreAppliedOnce() throws {
        let group = try members([("cam-a", 0), ("cam-b", 5_000_000_000)])
        let first = try group[0].member.send(.pause).message
        let second = try group[1].member.send(.chapter(name: "Two")).message
        broker.deliver()
        // QoS 1 delivers the second again; a capture of the first is replayed later.
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: second.payload()))
        world.advance(nanoseconds: 5_000_000_000)
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: first.payload()))
        broker.deliver()
        // Each member applies its own command when it gives it, the other's when it arrives; its own copy from the
        // broker, or a replay of it, is its own and ignored without a count.
        XCTAssertEqual(group[0].appliedNow.map(\.line), ["pause", "chapter Two"])
        XCTAssertEqual(group[1].appliedNow.map(\.line), ["chapter Two", "pause"])
        for m in group {
            XCTAssertEqual(m.member.drops[.duplicate], 1, m.member.host)
            XCTAssertEqual(m.member.commandLog.count, 2, m.member.host)
        }
    }

    func testAStrangerUsingThisMembersNameAndNumbersCannotSilenceItsOwnCommands() throws {
        let group = try members([("cam-a", 0), ("cam-b", 0)])
        // The largest sequence number a message may carry, under this member's name: past its own numbers, so
        // taken as a stranger's command, and it must not make the member's own later commands look like replays.
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: GroupCommandMessage(
            group: "studio", from: "cam-a", seq: GroupMessageDecoder.maximumSequenceNumber, command: "mark spoofed",
            atNanoseconds: world.now.withLock { $0 }, sentNanoseconds: 0, fps: FrameRate(30)).payload()))
        broker.deliver()
        try group[0].member.send(.chapter(name: "Two"))
        try group[0].member.send(.stop)
        broker.deliver()
        XCTAssertEqual(group[0].appliedNow.map(\.line), ["mark spoofed", "chapter Two", "stop"])
        XCTAssertEqual(group[0].member.drops.total, 0, "its own copies are not counted as anything")
    }

    func testAStrangersClaimOfAMembersNumbersDoesNotSilenceThatMemberOnTheOthers() throws {
        let group = try members([("cam-a", 0), ("cam-b", 0)])
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: GroupCommandMessage(
            group: "studio", from: "cam-a", seq: GroupMessageDecoder.maximumSequenceNumber, command: "mark spoofed",
            atNanoseconds: world.now.withLock { $0 }, sentNanoseconds: 0, fps: FrameRate(30)).payload()))
        broker.deliver()
        try group[0].member.send(.chapter(name: "Two"))
        try group[0].member.send(.stop)
        broker.deliver()
        XCTAssertEqual(group[1].appliedNow.map(\.line), ["mark spoofed", "chapter Two", "stop"],
                       "cam-b takes cam-a's real commands after the stranger's claim")
        XCTAssertEqual(group[1].member.drops.total, 0)
    }

    func testASequenceNumberPastTheLimitIsDroppedAsOutOfRange() throws {
        let group = try members([("cam-a", 0), ("cam-b", 0)])
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: GroupCommandMessage(
            group: "studio", from: "cam-a", seq: .max, command: "mark spoofed", atNanoseconds: world.now.withLock { $0 },
            sentNanoseconds: 0, fps: FrameRate(30)).payload()))
        broker.deliver()
        try group[0].member.send(.chapter(name: "Two"))
        broker.deliver()
        XCTAssertEqual(group[0].appliedNow.map(\.line), ["chapter Two"])
        XCTAssertEqual(group[0].member.drops[.outOfRange], 1)
    }

    func testALateCommandIsAppliedOnArrivalAndReportedWithHowLate() throws {
        let group = try members([("cam-a", 0), ("cam-b", 1_000_000_000)])
        let message = try group[0].member.send(.stop).message
        // The broker is slow: the message arrives 400 ms after it was sent, 150 ms or so after its time.
        world.advance(nanoseconds: 400_000_000)
        broker.deliver()
        let arrival = world.now.withLock { $0 }
        // The sender applied its own at its slot when it gave it; the other member gets it late.
        XCTAssertNil(try XCTUnwrap(group[0].appliedNow.first).lateByNanoseconds)
        XCTAssertEqual(group[0].member.commandLog.map(\.outcome), [.onTime])
        for m in group.dropFirst() {
            let a = try XCTUnwrap(m.appliedNow.first)
            XCTAssertEqual(a.lateByNanoseconds, arrival - message.atNanoseconds)
            XCTAssertEqual(a.captureTime, .nanoseconds(arrival - m.captureOffset), "a late command applies now")
            let record = try XCTUnwrap(m.member.commandLog.first)
            XCTAssertEqual(record.outcome, .late)
            XCTAssertEqual(record.arrivedNanoseconds, arrival)
            XCTAssertEqual(record.lateByNanoseconds, arrival - message.atNanoseconds)
            XCTAssertTrue(m.noticesNow.contains(.late(record)), m.member.host)
        }
    }

    // MARK: Refusals

    func testAMemberAtAnotherRateIsWarnedNamingBothAndTheTwoIgnoreEachOthersCommands() throws {
        let group = try members([("cam-a", 0), ("cam-b", 0)])
        let other = Member(broker: broker, world: world, host: "cam-c", rate: FrameRate(25), captureOffset: 0)
        try other.member.start()
        broker.deliver()
        XCTAssertTrue(other.noticesNow.contains(.rateMismatch(host: "cam-a", theirs: "30/1", ours: "25/1",
                                                              ourHost: "cam-c")))
        XCTAssertEqual(GroupNotice.rateMismatch(host: "cam-a", theirs: "30/1", ours: "25/1", ourHost: "cam-c").text,
                       "cam-a records at 30/1 fps, cam-c at 25/1 fps: each ignores the other's commands (cam-c "
                       + "records at its own rate); give every member the same output.fps")
        // A status is a hint: the newcomer records, at its own rate, by its own commands.
        try other.member.send(.record(name: nil))
        XCTAssertEqual(other.appliedNow.map(\.line), ["record"])
        XCTAssertTrue(group[0].noticesNow.contains(.rateMismatch(host: "cam-c", theirs: "25/1", ours: "30/1",
                                                                 ourHost: "cam-a")))
        broker.deliver()
        // The members at 30 fps ignore the newcomer's record, and it ignores theirs.
        try group[0].member.send(.stop)
        broker.deliver()
        XCTAssertEqual(group[0].appliedNow.map(\.line), ["stop"])
        XCTAssertEqual(group[0].member.drops[.otherRate], 1)
        XCTAssertTrue(group[0].noticesNow.contains(.dropped(.otherRate, detail:
            "cam-c records at 25/1 fps, cam-a at 30/1 fps: its \"record\" is ignored")))
        XCTAssertEqual(other.appliedNow.map(\.line), ["record"])
        XCTAssertEqual(other.member.drops[.otherRate], 1)
    }

    func testAFloodOfCommandsIsTakenAtABoundedRateAndItsWarningsAreHeldAndCounted() throws {
        let group = try members([("cam-a", 0)])
        let a = group[0]
        for seq in 1...1_000 {
            broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: GroupCommandMessage(
                group: "studio", from: "spammer", seq: UInt64(seq), command: "mark \(seq)",
                atNanoseconds: world.now.withLock { $0 }, sentNanoseconds: 0, fps: FrameRate(30)).payload()))
        }
        broker.deliver()
        XCTAssertEqual(a.appliedNow.count, GroupMessageBudget.commandBurst)
        XCTAssertEqual(a.member.drops[.overRate], 1_000 - GroupMessageBudget.commandBurst)
        let told = a.noticesNow.filter { if case .dropped = $0 { return true } else { return false } }.count
        XCTAssertEqual(told, GroupMessageBudget.warningBurst)
        // The member's own commands are never refused.
        try a.member.send(.chapter(name: "Mine"))
        XCTAssertEqual(a.appliedNow.last?.line, "chapter Mine")
        // A second later five more are taken; the held warnings become one line when the budget allows one.
        world.advance(nanoseconds: 1_000_000_000)
        for seq in 1_001...1_010 {
            broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: GroupCommandMessage(
                group: "studio", from: "spammer", seq: UInt64(seq), command: "mark \(seq)",
                atNanoseconds: world.now.withLock { $0 }, sentNanoseconds: 0, fps: FrameRate(30)).payload()))
        }
        broker.deliver()
        XCTAssertEqual(a.appliedNow.count, GroupMessageBudget.commandBurst + 1 + GroupMessageBudget.commandsPerSecond)
        world.advance(nanoseconds: 10_000_000_000)
        a.member.updateStatus(GroupMember.LocalStatus())
        XCTAssertEqual(a.noticesNow.last, .heldBack(count: 1_000 - GroupMessageBudget.commandBurst
                                                     - GroupMessageBudget.warningBurst + 5))
    }

    func testAStopOfTheGroupIsRemembered() throws {
        let group = try members([("cam-a", 0), ("cam-b", 0)])
        XCTAssertFalse(group[1].member.groupHasStopped)
        try group[0].member.send(.record(name: nil))
        broker.deliver()
        XCTAssertFalse(group[1].member.groupHasStopped)
        try group[0].member.send(.stop)
        broker.deliver()
        XCTAssertTrue(group[0].member.groupHasStopped)
        XCTAssertTrue(group[1].member.groupHasStopped)
    }

    func testStrangersMessagesAreDroppedAndCounted() throws {
        let group = try members([("cam-a", 0)])
        let a = group[0]
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: Array(repeating: 0x7B, count: 5000)))
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: Array(#"{"v":9}"#.utf8)))
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: GroupCommandMessage(
            group: "lab", from: "x", seq: 1, command: "stop", atNanoseconds: 0, sentNanoseconds: 0,
            fps: FrameRate(30)).payload()))
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: GroupCommandMessage(
            group: "studio", from: "x", seq: 1, command: "lens wide", atNanoseconds: 0, sentNanoseconds: 0,
            fps: FrameRate(30)).payload()))
        broker.deliver()
        XCTAssertTrue(a.appliedNow.isEmpty)
        XCTAssertEqual(a.member.drops[.oversized], 1)
        XCTAssertEqual(a.member.drops[.wrongSchema], 1)
        XCTAssertEqual(a.member.drops[.otherGroup], 1)
        XCTAssertEqual(a.member.drops[.notGroupCommand], 1)
        XCTAssertEqual(a.noticesNow.filter { if case .dropped = $0 { return true } else { return false } }.count, 4)
        XCTAssertThrowsError(try a.member.send(.lens(.named("wide")))) { error in
            XCTAssertEqual(error as? GroupMember.SendError, .notGroupCommand("lens"))
        }
    }

    /// A clock that would refuse `record` is said when the member starts, not first at `record`; `recordRefusal`
    /// says why for every command that would start a clip, and nothing with `require_sync: false`.
    func testAnUnsynchronisedClockIsToldAtTheStartAndRefusesRecordingOnlyWithRequireSync() throws {
        for requireSync in [true, false] {
            var settings = Self.settings
            settings.requireSync = requireSync
            let member = Member(broker: broker, world: world, host: "cam-\(requireSync)", captureOffset: 0,
                                settings: settings)
            member.kernel.withLock { $0?.unsynchronised = true }
            XCTAssertTrue(member.noticesNow.isEmpty)
            try member.member.start()
            let told = member.noticesNow.compactMap { notice -> String? in
                if case .clockHealth(.unsynchronised(let why)) = notice { return why } else { return nil }
            }
            XCTAssertEqual(told.count, 1, "\(member.noticesNow)")
            XCTAssertEqual(told.first?.contains("refuses to start recording"), requireSync, "\(told)")
            XCTAssertEqual(member.member.recordRefusal != nil, requireSync)
        }
    }

    func testRecordOnAnUnsynchronisedClockIsRefusedUnlessTheRigAllowsIt() throws {
        let group = try members([("cam-a", 0), ("cam-b", 0)])
        group[0].kernel.withLock { $0 = ClockSynchronisation(unsynchronised: true, maximumErrorMicroseconds: 16_000_000,
                                                          estimatedErrorMicroseconds: 16_000_000) }
        XCTAssertThrowsError(try group[0].member.send(.record(name: nil))) { error in
            guard case GroupMember.SendError.clockUnsynchronised = error else { return XCTFail("\(error)") }
        }
        // Another member's record reaches it: refused there too, and logged.
        try group[1].member.send(.record(name: nil))
        broker.deliver()
        XCTAssertTrue(group[0].appliedNow.isEmpty)
        XCTAssertEqual(group[0].member.commandLog.map(\.outcome), [.refusedUnsynchronised])
        XCTAssertEqual(group[1].appliedNow.count, 1)
        // pause is no record: it applies even so.
        try group[0].member.send(.pause)
        broker.deliver()
        XCTAssertEqual(group[0].appliedNow.map(\.line), ["pause"])

        // With require_sync: false the record goes out and applies, noted.
        broker = VirtualGroupBroker()
        var lenient = Self.settings
        lenient.requireSync = false
        let loose = Member(broker: broker, world: world, host: "cam-x", captureOffset: 0, settings: lenient)
        loose.kernel.withLock { $0?.unsynchronised = true }
        try loose.member.start()
        broker.deliver()
        try loose.member.send(.record(name: nil))
        broker.deliver()
        XCTAssertEqual(loose.appliedNow.map(\.line), ["record"])
        XCTAssertTrue(loose.noticesNow.contains { if case .unsynchronisedRecord(true, _) = $0 { return true } else { return false } },
                      "\(loose.noticesNow)")
    }

    // MARK: The broker comes and goes

    func testTheBrokerGoingAwayIsReportedAndACommandGivenMeanwhileAppliesHereOnly() throws {
        let group = try members([("cam-a", 0), ("cam-b", 0)])
        XCTAssertEqual(group[0].noticesNow.first, .joined(group: "studio", broker: "mqtt://broker.local:1883"))
        broker.goAway(reason: "connection lost")
        broker.deliver()
        XCTAssertTrue(group[0].noticesNow.contains(.brokerLost(reason: "connection lost")))
        let sent = try group[0].member.send(.pause)
        XCTAssertEqual(sent.appliedHereOnly, "the group's broker is away")
        let message = sent.message
        XCTAssertEqual(group[0].appliedNow.map(\.localOnly), [true], "applied here at once")
        XCTAssertEqual(group[0].appliedNow.first?.captureTime, .nanoseconds(world.now.withLock { $0 }))
        XCTAssertTrue(group[1].appliedNow.isEmpty)
        XCTAssertEqual(group[0].member.commandLog.map(\.outcome), [.localOnly])
        broker.comeBack()
        broker.deliver()
        XCTAssertTrue(group[0].noticesNow.contains(.brokerBack))
        // Had the client queued it and sent it on reconnection, it would not apply a second time here.
        broker.inject(GroupBusMessage(topic: "pausecam/studio/command", payload: message.payload()))
        broker.deliver()
        XCTAssertEqual(group[0].appliedNow.count, 1)
        XCTAssertEqual(group[1].appliedNow.count, 1, "the other member catches up (late)")
        // Statuses are published again after the reconnection: retained, online.
        let status = try XCTUnwrap(broker.retained["pausecam/studio/status/cam-a"])
        XCTAssertTrue(String(decoding: status.payload, as: UTF8.self).contains(#""online":true"#))
    }

    func testTheFirstAnswerIsAwaitedOnTheBusesEventAndALossIsToldOnce() throws {
        broker.goAway(reason: "connection refused")
        let member = Member(broker: broker, world: world, host: "cam-a", captureOffset: 0)
        let answered = Guarded(0)
        member.member.whenAnswered { answered.withLock { $0 += 1 } }
        try member.member.start()
        broker.deliver()
        XCTAssertEqual(answered.withLock { $0 }, 0, "the broker is down and said nothing yet")
        // The bus reports a failed first attempt, and then every retry: told once.
        broker.goAway(reason: "connection refused")
        broker.deliver()
        broker.goAway(reason: "connection refused")
        broker.deliver()
        XCTAssertEqual(answered.withLock { $0 }, 1)
        XCTAssertEqual(member.noticesNow, [.brokerUnreachable(reason: "connection refused")])
        // A command given meanwhile applies here at once, alone.
        try member.member.send(.record(name: nil))
        XCTAssertEqual(member.appliedNow.map(\.localOnly), [true])
        broker.comeBack()
        broker.deliver()
        broker.goAway(reason: "gone")
        broker.deliver()
        broker.goAway(reason: "gone")
        broker.deliver()
        XCTAssertEqual(member.noticesNow.filter { if case .brokerLost = $0 { return true } else { return false } },
                       [.brokerLost(reason: "gone")])
        member.member.whenAnswered { answered.withLock { $0 += 1 } }
        XCTAssertEqual(answered.withLock { $0 }, 2, "called at once once answered")
    }

    func testStatusesAreRetainedAndAVanishedMemberIsMarkedOfflineByItsWill() throws {
        let group = try members([("cam-a", 0), ("cam-b", 0)])
        group[1].member.updateStatus(GroupMember.LocalStatus(state: "recording", scene: 2, timer: .seconds(83),
                                                             dropped: 1, diskLeftBytes: 9_000))
        broker.deliver()
        let seen = try XCTUnwrap(group[0].member.members["cam-b"])
        XCTAssertEqual(seen.state, "recording")
        XCTAssertEqual(seen.scene, 2)
        XCTAssertEqual(seen.timer, 83)
        XCTAssertEqual(seen.diskLeftBytes, 9_000)
        XCTAssertEqual(seen.clockErrorNanoseconds, 50_000)
        XCTAssertTrue(seen.online)
        broker.vanish(group[1].bus)
        broker.deliver()
        XCTAssertEqual(group[0].member.members["cam-b"]?.online, false)
        XCTAssertEqual(group[0].member.members["cam-b"]?.state, "offline")
        // A goodbye is an offline status too, published by the member itself.
        group[0].member.stop()
        let goodbye = try XCTUnwrap(broker.retained["pausecam/studio/status/cam-a"])
        XCTAssertTrue(String(decoding: goodbye.payload, as: UTF8.self).contains(#""online":false"#))
    }

    func testAStepOfTheSharedClockMovesThePhaseAnchorAndIsReported() throws {
        let group = try members([("cam-a", 0)])
        let a = group[0]
        let before = a.member.phaseAnchor
        a.clockError.withLock { $0 = -2_000_000_000 }  // chrony steps the clock back 2 s
        try a.member.send(.mark("after the step"))
        XCTAssertEqual(a.member.phaseAnchor, before + .seconds(2))
        XCTAssertTrue(a.noticesNow.contains(.clockStepped(byNanoseconds: -2_000_000_000, phaseAnchor: before + .seconds(2))))
        broker.deliver()
        let applied = try XCTUnwrap(a.appliedNow.first)
        XCTAssertEqual(applied.captureTime, OutputClock.slotTime(anchor: before + .seconds(2), index: applied.slot,
                                                                 frameDuration: FrameRate(30).frameDuration))
    }

    private func frame(_ pts: MediaTime) -> VideoFrame {
        VideoFrame(pts: pts, width: 2, height: 2, format: .yuv420p,
                   planes: [Plane(bytes: [0, 0, 0, 0], stride: 2), Plane(bytes: [0], stride: 1),
                            Plane(bytes: [0], stride: 1)], lens: "main")
    }
}
