import Foundation

/// Reads what arrives from the broker into commands and statuses of one group, refusing everything else with a
/// reason. A member applies nothing that has not passed here: a command is a line of the shell's grammar, parsed
/// by the one `CommandParser`, and one of the group's recording commands (`groupCommandWords`).
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
        guard let decoded = json(GroupCommandMessage.self, message.payload),
              GroupTopics.problem(withLevel: decoded.from) == nil else { return .dropped(.wrongSchema) }
        guard decoded.group == topics.group else { return .dropped(.otherGroup) }
        guard case .success(let command) = parser.parse(decoded.command), Self.isGroupCommand(command) else {
            return .dropped(.notGroupCommand)
        }
        return .command(decoded, command)
    }

    private func status(_ message: GroupBusMessage, host: String) -> Decoded {
        guard let decoded = json(GroupStatusMessage.self, message.payload), decoded.host == host else {
            return .dropped(.wrongSchema)
        }
        return .status(decoded)
    }
}
