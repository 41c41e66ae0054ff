/// The MQTT topics of one group, all under `pausecam/<group>/`, so other tools (Node-RED, Home Assistant, a Stream
/// Deck plug-in) can drive and watch the rig with nothing but a broker:
///
/// - `pausecam/<group>/command`: the recording commands (`GroupCommandMessage`), published at QoS 1, never retained.
/// - `pausecam/<group>/status/<host>`: each member's status (`GroupStatusMessage`), retained, so a newcomer learns
///   every member at once; the member's last will publishes an offline status there when it vanishes.
public struct GroupTopics: Sendable, Equatable {
    /// The group's name: one topic level.
    public var group: String

    /// The topics of `group`, a name `problem(withLevel:)` accepts.
    public init(group: String) { self.group = group }

    /// The first level of every PauseCam topic.
    public static let root = "pausecam"

    /// Where commands go: every member subscribes to it and applies what arrives, its own commands included.
    public var command: String { "\(Self.root)/\(group)/command" }

    /// Where `host` keeps its retained status.
    public func status(of host: String) -> String { "\(Self.root)/\(group)/status/\(host)" }

    /// The subscription that receives every member's status (`+` matches one level).
    public var everyStatus: String { "\(Self.root)/\(group)/status/+" }

    /// The host whose status `topic` carries, or `nil` when `topic` is not one of this group's status topics.
    public func host(ofStatusTopic topic: String) -> String? {
        let prefix = "\(Self.root)/\(group)/status/"
        guard topic.hasPrefix(prefix) else { return nil }
        let host = String(topic.dropFirst(prefix.count))
        return Self.problem(withLevel: host) == nil ? host : nil
    }

    /// The longest group or host name, in UTF-8 bytes: far below MQTT's 65,535-byte topic limit, long enough for
    /// any hostname (a DNS label is at most 63 bytes, a full name 253).
    public static let maximumLevelBytes = 253

    /// Why `name` cannot be one level of a topic (a group or host name), or `nil` when it can. A level must not be
    /// empty, and must not hold `/` (it would split into two levels), `+` or `#` (MQTT's wildcards: a subscription
    /// would match other topics), NUL (forbidden in MQTT strings) or another control character.
    public static func problem(withLevel name: String) -> String? {
        if name.isEmpty { return "a name is needed" }
        if name.utf8.count > maximumLevelBytes { return "\"\(name.prefix(20))…\" is longer than \(maximumLevelBytes) bytes" }
        for forbidden: Character in ["/", "+", "#"] where name.contains(forbidden) {
            return "\"\(name)\" holds \"\(forbidden)\", which MQTT topics reserve; use letters, digits, - _ or ."
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "\"\(name.debugDescription.dropFirst().dropLast())\" holds a control character (NUL, tab, newline…)"
        }
        return nil
    }
}
