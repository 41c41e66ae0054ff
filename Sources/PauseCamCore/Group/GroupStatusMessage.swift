import Foundation

/// One member's state, retained on `pausecam/<group>/status/<host>` (README, "Group topics"): what
/// `pausecam ctl --group NAME status` lists and a dashboard shows. The member's last will is the same message with
/// `online: false` and state `offline`, so a member that vanished is marked by the broker itself.
///
/// ```json
/// {"v":1,"host":"cam-a","state":"recording","scene":2,"timer":83.5,"dropped":0,"disk_left_bytes":51234567890,
///  "seen_ns":1718000000000000000,"clock_error_ns":12000,"online":true,"fps":"30/1"}
/// ```
public struct GroupStatusMessage: Codable, Sendable, Equatable {
    /// The schema version (`GroupCommandMessage.schemaVersion`).
    public var v: Int
    /// The member's name; equal to its topic's last level.
    public var host: String
    /// `idle`, `recording`, `paused` (the shell's states), or `offline` in the will.
    public var state: String
    /// The current scene's number (0 while idle).
    public var scene: Int
    /// The movie's timer in seconds (what the shell shows), for display only.
    public var timer: Double
    /// Frames dropped in the current clip.
    public var dropped: Int
    /// Free bytes where the movies go, `nil` when unknown.
    public var diskLeftBytes: Int64?
    /// When the member published this, CLOCK_REALTIME nanoseconds.
    public var seenNanoseconds: Int64
    /// The kernel's estimated clock error (`adjtimex` esterror) in nanoseconds, `nil` when unknown.
    public var clockErrorNanoseconds: Int64?
    /// False in the will and the goodbye: the member is gone.
    public var online: Bool
    /// The member's output rate, `NUM/DEN` as in `GroupCommandMessage.fps`; `nil` from a member that does not say.
    public var fps: String?

    enum CodingKeys: String, CodingKey {
        case v, host, state, scene, timer, dropped
        case diskLeftBytes = "disk_left_bytes"
        case seenNanoseconds = "seen_ns"
        case clockErrorNanoseconds = "clock_error_ns"
        case online, fps
    }

    public init(host: String, state: String, scene: Int, timer: Double, dropped: Int, diskLeftBytes: Int64?,
                seenNanoseconds: Int64, clockErrorNanoseconds: Int64?, online: Bool, fps: String?) {
        v = GroupCommandMessage.schemaVersion
        self.host = host
        self.state = state
        self.scene = scene
        self.timer = timer
        self.dropped = dropped
        self.diskLeftBytes = diskLeftBytes
        self.seenNanoseconds = seenNanoseconds
        self.clockErrorNanoseconds = clockErrorNanoseconds
        self.online = online
        self.fps = fps
    }

    /// The last will of `host`: offline, as of `seenNanoseconds` (the broker publishes it later, unchanged).
    public static func offline(host: String, seenNanoseconds: Int64, fps: String?) -> GroupStatusMessage {
        GroupStatusMessage(host: host, state: "offline", scene: 0, timer: 0, dropped: 0, diskLeftBytes: nil,
                           seenNanoseconds: seenNanoseconds, clockErrorNanoseconds: nil, online: false, fps: fps)
    }

    /// The first field outside what `GroupMessageDecoder` accepts, or `nil` when every one is in range: `seen_ns` in
    /// `acceptedInstants`; `timer` finite, from 0 to `maximumTimerSeconds`; `scene`, `dropped`, `disk_left_bytes` and
    /// `clock_error_ns` not negative. `fps` is checked by the decoder.
    public var outOfRangeField: String? {
        if !GroupMessageDecoder.acceptedInstants.contains(seenNanoseconds) { return CodingKeys.seenNanoseconds.rawValue }
        if !(timer.isFinite && (0...GroupMessageDecoder.maximumTimerSeconds).contains(timer)) {
            return CodingKeys.timer.rawValue
        }
        if scene < 0 { return CodingKeys.scene.rawValue }
        if dropped < 0 { return CodingKeys.dropped.rawValue }
        if let bytes = diskLeftBytes, bytes < 0 { return CodingKeys.diskLeftBytes.rawValue }
        if let error = clockErrorNanoseconds, error < 0 { return CodingKeys.clockErrorNanoseconds.rawValue }
        return nil
    }

    /// The JSON bytes published, retained, on the member's status topic.
    public func payload() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { preconditionFailure("a status message is always JSON") }
        return Array(data)
    }
}
