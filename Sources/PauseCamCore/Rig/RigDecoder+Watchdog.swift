/// `watchdog:` at the top level or on a lens: how long a streaming camera may send nothing before PauseCam restarts
/// its stream (see `FreezeWatchdog`).
extension RigDecoder {
    /// The shortest `watchdog:`: below half a second a camera slowed down by a dim room (a few frames per second)
    /// would be restarted while it still works.
    static let watchdogRange = MediaTime.milliseconds(500)...MediaTime.seconds(60)

    mutating func watchdog(_ node: YAMLNode, _ path: KeyPath) -> MediaTime? {
        guard let limit = duration(node, path, max: Self.watchdogRange.upperBound, positive: true) else { return nil }
        guard limit >= Self.watchdogRange.lowerBound else {
            report("watchdog \(node.text ?? "") is too short: a camera in a dim room can take that long between "
                   + "frames; write \(CommandParser.formatDuration(Self.watchdogRange.lowerBound)) to "
                   + "\(CommandParser.formatDuration(Self.watchdogRange.upperBound))", at: node.mark, path: path)
            return nil
        }
        return limit
    }
}
