import Foundation

/// One recording command for the whole group, as JSON on `pausecam/<group>/command` (README, "Group topics"):
///
/// ```json
/// {"v":1,"group":"studio","from":"cam-a","seq":1718000000000001,"command":"chapter Interview",
///  "at_ns":1718000000250000000,"sent_ns":1718000000000000000,"fps":"30/1"}
/// ```
///
/// `command` is a line of the shell's grammar, parsed with the same `CommandParser` as a typed line, so a member
/// never executes anything else; `at_ns` is when it takes effect on the shared clock (CLOCK_REALTIME, nanoseconds
/// since the Unix epoch, as PTP or NTP discipline it), so every member applies it at the same instant whatever the
/// broker's delay; `seq` grows with every command of one sender, across its restarts (`GroupMember` starts it
/// from the clock in microseconds), so a duplicate or a replay is applied once; `fps` lets a member refuse a group
/// whose movies could not share one frame grid.
public struct GroupCommandMessage: Codable, Sendable, Equatable {
    /// The schema version this build writes and reads.
    public static let schemaVersion = 1

    /// The schema version (`schemaVersion`); a member drops any other.
    public var v: Int
    /// The group it is for; a member drops another group's.
    public var group: String
    /// The sender's host name (or `ctl@HOST` for a publisher that is no member).
    public var from: String
    /// The sender's sequence number: greater than every earlier one of the same sender.
    public var seq: UInt64
    /// The shell-grammar line: `record`, `pause`, `chapter Interview`, `mark good take`…
    public var command: String
    /// The effective time, CLOCK_REALTIME nanoseconds.
    public var atNanoseconds: Int64
    /// When the sender published it, CLOCK_REALTIME nanoseconds.
    public var sentNanoseconds: Int64
    /// The sender's output rate as `NUM/DEN` (`30/1`, `30000/1001`).
    public var fps: String

    enum CodingKeys: String, CodingKey {
        case v, group, from, seq, command
        case atNanoseconds = "at_ns"
        case sentNanoseconds = "sent_ns"
        case fps
    }

    public init(group: String, from: String, seq: UInt64, command: String, atNanoseconds: Int64,
                sentNanoseconds: Int64, fps: FrameRate) {
        v = Self.schemaVersion
        self.group = group
        self.from = from
        self.seq = seq
        self.command = command
        self.atNanoseconds = atNanoseconds
        self.sentNanoseconds = sentNanoseconds
        self.fps = Self.text(of: fps)
    }

    /// `NUM/DEN` as written in `fps`, reduced, so `60/2` and `30/1` are the same rate.
    public static func text(of rate: FrameRate) -> String {
        let d = MediaTime.gcd(Int64(rate.numerator), Int64(rate.denominator))
        return "\(Int64(rate.numerator) / d)/\(Int64(rate.denominator) / d)"
    }

    /// The first field outside what `GroupMessageDecoder` accepts (`at_ns`, `sent_ns`: `acceptedInstants`; `seq`: at
    /// most `maximumSequenceNumber`), or `nil` when every one is in range. `fps` is checked by the decoder.
    public var outOfRangeField: String? {
        if !GroupMessageDecoder.acceptedInstants.contains(atNanoseconds) { return CodingKeys.atNanoseconds.rawValue }
        if !GroupMessageDecoder.acceptedInstants.contains(sentNanoseconds) { return CodingKeys.sentNanoseconds.rawValue }
        if seq > GroupMessageDecoder.maximumSequenceNumber { return CodingKeys.seq.rawValue }
        return nil
    }

    /// Why the command `line` cannot go to `group` from `from` at `fps`, or `nil` when it can: the message it makes,
    /// with its numbers at their longest, would pass `GroupMessageDecoder.maximumPayloadBytes`, so every member
    /// (and `ctl --group`, waiting for it to come back) would drop it. Asked before anything is published.
    public static func sizeProblem(group: String, from: String, line: String, fps: FrameRate) -> String? {
        let longest = GroupMessageDecoder.acceptedInstants.upperBound
        let message = GroupCommandMessage(group: group, from: from, seq: GroupMessageDecoder.maximumSequenceNumber,
                                          command: line, atNanoseconds: longest, sentNanoseconds: longest, fps: fps)
        let size = message.payload().count
        let limit = GroupMessageDecoder.maximumPayloadBytes
        guard size > limit else { return nil }
        let word = line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? line
        return "\"\(word)\" is too long for the group: its message would be \(size) bytes and members read at most "
            + "\(limit); shorten its text by \(size - limit) bytes or more (nothing was sent)"
    }

    /// The JSON bytes published on the command topic (keys sorted, so a message is byte-for-byte reproducible).
    public func payload() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { preconditionFailure("a command message is always JSON") }
        return Array(data)
    }
}
