import Foundation

/// Reads what arrives from the broker into commands and statuses of one group, refusing everything else with a
/// reason. A member applies nothing that has not passed here: a command is a line of the shell's grammar, parsed
/// by the one `CommandParser`, and one of the group's recording commands (`groupCommandWords`).
///
/// Every time and number in a message is range-checked here (`acceptedInstants`, `maximumSequenceNumber`,
/// `maximumTimerSeconds`, a rate of 1–240 fps), so that what a member and `ctl --group` compute from a message — a
/// slot, a capture time, a lateness, a timer — cannot overflow, whoever published it.
public struct GroupMessageDecoder: Sendable {
    /// What one message turned out to be.
    public enum Decoded: Sendable, Equatable {
        /// A recording command for the group, with its parsed `Command`.
        case command(GroupCommandMessage, Command)
        /// A member's status (its own topic and `host` agree).
        case status(GroupStatusMessage)
        /// Ignored, and why.
        case dropped(GroupDropReason)
    }

    /// The largest payload read: a command or a status is a few hundred bytes; anything far larger is not ours,
    /// and parsing it would only cost time on the bus's thread.
    public static let maximumPayloadBytes = 4096

    /// The instants accepted in `at_ns`, `sent_ns` and `seen_ns` (CLOCK_REALTIME nanoseconds): from the Unix epoch to
    /// 2100-01-01T00:00:00Z. A real clock reads inside it; the half of `Int64` left above it is room for the
    /// arithmetic on an instant (its slot's start, its capture time on this host, how late it came).
    public static let acceptedInstants: ClosedRange<Int64> = 0...4_102_444_800_000_000_000

    /// The largest `seq` accepted: 2^53, the largest integer every JSON reader (JavaScript's included) holds exactly.
    /// A sender starts from its clock in microseconds (`GroupMember.firstSequenceNumber`), under 2^53 until 2255.
    public static let maximumSequenceNumber: UInt64 = 1 << 53

    /// The longest `timer` accepted in a status, seconds (about 31 years): a movie's length, far below what a
    /// nanosecond count holds.
    public static let maximumTimerSeconds: Double = 1e9

    /// The commands that go to the whole group; lens, zoom, exposure and focus stay on the member that got them.
    public static let groupCommandWords: Set<String> = ["record", "pause", "resume", "toggle", "chapter", "mark", "stop"]

    /// Whether `command` goes to the whole group when a rig has a `group:`.
    public static func isGroupCommand(_ command: Command) -> Bool { groupCommandWords.contains(command.word) }

    public let topics: GroupTopics
    private let parser = CommandParser()

    /// A decoder for the group `topics` name.
    public init(topics: GroupTopics) { self.topics = topics }

    /// The message's meaning, or why it is ignored.
    public func decode(_ message: GroupBusMessage) -> Decoded {
        guard message.payload.count <= Self.maximumPayloadBytes else { return .dropped(.oversized) }
        if message.topic == topics.command {
            return command(message)
        }
        if let host = topics.host(ofStatusTopic: message.topic) {
            return status(message, host: host)
        }
        return .dropped(.otherGroup)
    }

    private struct Version: Decodable { var v: Int }

    /// The payload as `T`, when it is JSON of this schema version.
    private func json<T: Decodable>(_ type: T.Type, _ payload: [UInt8]) -> T? {
        let decoder = JSONDecoder()
        guard let version = try? decoder.decode(Version.self, from: Data(payload)),
              version.v == GroupCommandMessage.schemaVersion else { return nil }
        return try? decoder.decode(T.self, from: Data(payload))
    }

    private func command(_ message: GroupBusMessage) -> Decoded {
        // A retained command would reach every member that subscribes later, long after its time.
        if message.retained { return .dropped(.retainedCommand) }
        guard var decoded = json(GroupCommandMessage.self, message.payload),
              GroupTopics.problem(withLevel: decoded.from) == nil else { return .dropped(.wrongSchema) }
        guard decoded.group == topics.group else { return .dropped(.otherGroup) }
        guard decoded.outOfRangeField == nil, let rate = Self.frameRate(decoded.fps) else {
            return .dropped(.outOfRange)
        }
        decoded.fps = GroupCommandMessage.text(of: rate)
        guard case .success(let command) = parser.parse(decoded.command), Self.isGroupCommand(command) else {
            return .dropped(.notGroupCommand)
        }
        return .command(decoded, command)
    }

    private func status(_ message: GroupBusMessage, host: String) -> Decoded {
        guard var decoded = json(GroupStatusMessage.self, message.payload), decoded.host == host else {
            return .dropped(.wrongSchema)
        }
        guard decoded.outOfRangeField == nil else { return .dropped(.outOfRange) }
        if let fps = decoded.fps {
            guard let rate = Self.frameRate(fps) else { return .dropped(.outOfRange) }
            decoded.fps = GroupCommandMessage.text(of: rate)
        }
        return .status(decoded)
    }

    /// A message's `fps`: `NUM/DEN` in digits, 1 to 240 frames per second (the rig's own range); `nil` otherwise.
    /// The caller writes it back reduced (`60/2` is `30/1`), the form a member compares.
    static func frameRate(_ text: String) -> FrameRate? {
        guard text.contains("/"), case .success(let rate) = RigValueParser.frameRate(text) else { return nil }
        return rate
    }
}
