import PauseCamCore

extension PromptFormatter {
    /// `[42 min left] ` before the prompt while the recording time left is under an hour
    /// (`RigStatus.timeLeftShownBelow`): yellow, red at ten minutes or less (`RecordingTimeLeft.isWarning`).
    /// Empty when it is an hour or more, or unknown.
    public func timeLeftMark(_ timeLeft: RecordingTimeLeft) -> String {
        guard let seconds = timeLeft.seconds, seconds < RigStatus.timeLeftShownBelow else { return "" }
        let text = "[\(RecordingTimeLeft.text(seconds: seconds)) left]"
        guard color else { return text + " " }
        return (timeLeft.isWarning ? "\u{1B}[1;31m" : "\u{1B}[33m") + text + "\u{1B}[0m "
    }
}
