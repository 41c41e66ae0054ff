import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam ctl --group NAME [--broker URL] COMMAND`: talks to a group's members through its broker, without a
/// member of its own (a button box, a cron job). `status` lists every member from their retained status messages;
/// a recording command is published like a member publishes it — a sequence number, and an effective time the
/// lead (`--lead`, default 250 ms: ctl does not read the members' rigs) from now on the shared clock, snapped to the group's frame grid — and ctl waits until the broker
/// has it (the message comes back on the command topic) before it says so.
enum GroupCtl {
    static let defaultBroker = "mqtt://127.0.0.1:1883"

    static func run(group: String, broker url: String, request: String, lead: MediaTime,
                    timeoutSeconds: Double) throws -> Int32 {
        if let problem = GroupTopics.problem(withLevel: group) { throw UsageError("--group \(group): \(problem)") }
        guard let broker = GroupBrokerAddress(url) else {
            throw UsageError("--broker \(url): write \(GroupBrokerAddress.syntax)")
        }
        var command: Command?
        if request != "status" {
            switch CommandParser().parse(request) {
            case .success(let parsed): command = parsed
            case .failure(let failure): throw UsageError(failure.message)
            }
            guard let command, GroupMessageDecoder.isGroupCommand(command) else {
                let words = GroupMessageDecoder.groupCommandWords.sorted().joined(separator: ", ")
                throw UsageError("\"\(request)\" is not a group command; a group takes status, \(words)")
            }
        }
        let topics = GroupTopics(group: group)
        let sender = "ctl-\(ProcessInfo.processInfo.processIdentifier)"
        let bus = try MQTTGroupBus(options: MQTTClient.Options(
            broker: MQTTBrokerAddress(host: broker.host, port: broker.port, usesTLS: broker.tls),
            clientID: "pausecam-\(group)-\(sender)"))
        let inbox = GroupCtlInbox(decoder: GroupMessageDecoder(topics: topics))
        try bus.start(subscriptions: [topics.everyStatus, topics.command], will: nil) { inbox.take($0) }
        defer { bus.stop() }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        guard inbox.wait(until: deadline, for: { $0.connected || $0.lost != nil }), inbox.lost == nil else {
            StandardStreamWriter.error.write("pausecam: the group's broker at \(broker) did not answer: "
                                             + "\(inbox.lost ?? "no connection within \(timeoutSeconds) s")\n")
            return 1
        }
        // Retained statuses come right after the subscription; a short wait collects them.
        _ = inbox.wait(until: min(deadline, Date().addingTimeInterval(0.5)), for: { _ in false })
        let members = inbox.members
        guard let command else {
            guard !members.isEmpty else {
                StandardStreamWriter.error.write("pausecam: no member of group \(group) has said anything on \(broker)\n")
                return 1
            }
            let now = ClockPairReading.read().realtimeNanoseconds
            for member in members.values.sorted(by: { $0.host < $1.host }) {
                print(line(for: member, now: now))
            }
            return 0
        }
        let rates = Set(members.values.filter(\.online).compactMap(\.fps))
        guard let fps = rates.first, let rate = frameRate(fps) else {
            StandardStreamWriter.error.write("pausecam: no member of group \(group) is online on \(broker): "
                                             + "nothing was sent\n")
            return 1
        }
        guard rates.count == 1 else {
            StandardStreamWriter.error.write("pausecam: group \(group)'s members record at different rates "
                                             + "(\(rates.sorted().joined(separator: ", ")) fps): nothing was sent\n")
            return 1
        }
        let line = CommandParser.line(for: command)
        if let problem = GroupCommandMessage.sizeProblem(group: group, from: sender, line: line, fps: rate) {
            throw UsageError(problem)
        }
        let now = ClockPairReading.read().realtimeNanoseconds
        let at = EpochGrid(rate: rate).effectiveTime(now: now, lead: lead)
        let message = GroupCommandMessage(group: group, from: sender,
                                          seq: GroupMember.firstSequenceNumber(realtimeNanoseconds: now),
                                          command: line, atNanoseconds: at,
                                          sentNanoseconds: now, fps: rate)
        try bus.publish(GroupBusMessage(topic: topics.command, payload: message.payload()))
        guard inbox.wait(until: deadline, for: { $0.echoed.contains(message.seq) }) else {
            StandardStreamWriter.error.write("pausecam: the broker did not confirm \"\(message.command)\" within "
                                             + "\(timeoutSeconds) s; it may not have reached the group\n")
            return 1
        }
        let online = members.values.filter(\.online).map(\.host).sorted()
        print("ok sent to group \(group) (\(online.joined(separator: ", "))): \(message.command) in "
              + String(format: "%.2f", Double(at - now) / 1e9) + " s")
        return 0
    }

    /// One member's status line. Its text came from whoever published on the broker: control characters are shown
    /// visibly (`VisibleText`, as the shell shows a remote's mark), and its numbers, range-checked by the decoder,
    /// are printed with arithmetic that cannot trap.
    static func line(for member: GroupStatusMessage, now: Int64) -> String {
        let host = VisibleText.escaped(member.host)
        guard member.online else {
            return "\(host): offline (last seen \(ago(member.seenNanoseconds, now)))"
        }
        let timer = Int64(exactly: (member.timer * 1e9).rounded()) ?? 0
        var parts = ["\(host): \(VisibleText.escaped(member.state))", "scene \(member.scene)",
                     "timer \(DurationParser.clockString(MediaTime.nanoseconds(timer)))",
                     "dropped \(member.dropped)"]
        if let disk = member.diskLeftBytes { parts.append("disk left \(disk / 1_000_000) MB") }
        parts.append("seen \(ago(member.seenNanoseconds, now))")
        if let fps = member.fps { parts.append("\(VisibleText.escaped(fps)) fps") }
        if let error = member.clockErrorNanoseconds {
            parts.append(ClockErrorText.describe(errorNanoseconds: error, rate: member.fps.flatMap(frameRate)))
        }
        return parts.joined(separator: ", ")
    }

    private static func ago(_ seen: Int64, _ now: Int64) -> String {
        String(format: "%.1f", max(0, (Double(now) - Double(seen)) / 1e9)) + " s ago"
    }

    private static func frameRate(_ text: String) -> FrameRate? {
        let parts = text.split(separator: "/").compactMap { Int32($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return nil }
        return FrameRate(parts[0], parts[1])
    }
}

/// What the broker told `ctl --group`, filled on the bus's thread and read on the main thread. Messages are read by
/// the group's `GroupMessageDecoder`, as a member reads them: what a member ignores (over 4 KiB, another schema, a
/// status whose `host` is not its topic's) is neither listed nor counted here.
final class GroupCtlInbox: Sendable {
    struct Seen {
        var connected = false
        var lost: String?
        var members: [String: GroupStatusMessage] = [:]
        var echoed: Set<UInt64> = []
    }

    private let decoder: GroupMessageDecoder
    private let seen = Guarded(Seen())
    private let changed = DispatchSemaphore(value: 0)

    /// An inbox reading the messages of `decoder`'s group.
    init(decoder: GroupMessageDecoder) { self.decoder = decoder }

    func take(_ event: GroupBusEvent) {
        seen.withLock { seen in
            switch event {
            case .connected: seen.connected = true
            case .lost(let reason): seen.lost = reason
            case .message(let message):
                switch decoder.decode(message) {
                case .status(let status): seen.members[status.host] = status
                case .command(let command, _): seen.echoed.insert(command.seq)
                case .dropped: break
                }
            }
        }
        changed.signal()
    }

    var members: [String: GroupStatusMessage] { seen.withLock { $0.members } }
    var lost: String? { seen.withLock { $0.lost } }

    /// Waits until `condition` holds or `deadline` passes; true when it holds.
    func wait(until deadline: Date, for condition: (Seen) -> Bool) -> Bool {
        while true {
            if seen.withLock({ condition($0) }) { return true }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            _ = changed.wait(timeout: .now() + left)
        }
    }
}
