import Foundation

/// Says once when a clip's recording time left falls to `RecordingTimeLeft.warningSeconds` (ten minutes), and once
/// when it rises clear of it again (space freed, or a quieter picture), so a person hears of the low disk in time
/// and hears its all-clear. A value type fed each measured time left; it returns the event to tell, if any.
///
/// The all-clear waits for `clearMargin` above the warning, so a rate that wobbles around ten minutes does not
/// repeat the warning every round. An unknown time left changes nothing.
public struct RecordingTimeAlarm: Sendable, Equatable {
    /// How far above the warning the time left must climb before the all-clear.
    public static let clearMargin = 60

    private var warned = false

    public init() {}

    /// The event for this round's `timeLeft`, or `nil`.
    public mutating func update(_ timeLeft: RecordingTimeLeft) -> EngineEvent? {
        guard let seconds = timeLeft.seconds else { return nil }
        if !warned, seconds <= RecordingTimeLeft.warningSeconds {
            warned = true
            return .recordingTimeLeft(seconds: seconds, low: true, bytesPerSecond: timeLeft.bytesPerSecond ?? 0)
        }
        if warned, seconds > RecordingTimeLeft.warningSeconds + Self.clearMargin {
            warned = false
            return .recordingTimeLeft(seconds: seconds, low: false, bytesPerSecond: timeLeft.bytesPerSecond ?? 0)
        }
        return nil
    }
}
