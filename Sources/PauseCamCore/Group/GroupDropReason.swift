/// Why a member ignored a message from the broker. Each is counted (`GroupDropCounts`) and warned about, never
/// fatal: a stray publisher must not stop a recording.
public enum GroupDropReason: String, Sendable, Equatable, CaseIterable {
    /// Larger than `GroupMessageDecoder.maximumPayloadBytes`.
    case oversized
    /// Not JSON, another schema version, a missing or mistyped field.
    case wrongSchema = "wrong_schema"
    /// A time or number outside what any sender writes (`GroupMessageDecoder`'s ranges: an instant before 1970 or
    /// after 2100, a rate outside 1–240 fps, a negative count…): arithmetic on it could overflow.
    case outOfRange = "out_of_range"
    /// Says it belongs to another group, or came on another group's topic.
    case otherGroup = "other_group"
    /// A command line that is not one of the group's recording commands, or not the shell grammar at all.
    case notGroupCommand = "not_group_command"
    /// A command kept by the broker (retained): it is old news to whoever subscribes later, never a command.
    case retainedCommand = "retained_command"
    /// A sequence number of its sender already applied (a duplicate delivery or a replay).
    case duplicate
    /// From a member whose output rate differs from this member's: the movies could not share one frame grid.
    case otherRate = "other_rate"
    /// A command beyond the rate a member takes from others (`GroupMessageBudget`): a flood, not a person.
    case overRate = "over_rate"
}

/// How many messages were ignored, per reason: the group's line in the sidecar and in warnings.
public struct GroupDropCounts: Sendable, Equatable {
    /// The count of each reason that occurred.
    public private(set) var counts: [GroupDropReason: Int] = [:]

    public init() {}

    /// One more message ignored for `reason`.
    public mutating func count(_ reason: GroupDropReason) { counts[reason, default: 0] += 1 }

    /// Messages ignored for `reason`.
    public subscript(reason: GroupDropReason) -> Int { counts[reason] ?? 0 }

    /// Every message ignored.
    public var total: Int { counts.values.reduce(0, +) }
}
