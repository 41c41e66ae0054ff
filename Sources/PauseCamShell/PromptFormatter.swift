import PauseCamCore

/// The shell's prompt, which shows the live state: `● REC scene 3 00:01:23.4 ▆▆▃  main 2x >`,
/// `‖ PAUSED scene 3 00:01:23.4 main >`, `idle main >`, `3… main >` during the countdown before a clip. Plain text when colour is off (`NO_COLOR`, not a terminal):
/// then the level meter is `[##- ]`.
public struct PromptFormatter: Sendable {
    public var color: Bool
    public init(color: Bool) { self.color = color }

    /// The prompt for a session `state` at `scene` with the timer, the active lens and its digital zoom.
    /// `level` is the microphone's recent peak in dBFS (`nil`: no microphone), shown as a meter while recording;
    /// `countdown` the seconds left before a clip starts, while it counts down.
    public func prompt(state: Session.State, scene: Int, timer: MediaTime, lens: String, digitalZoom: Double,
                       level: Double? = nil, countdown: Int? = nil) -> String {
        let time = DurationParser.clockString(timer)
        let zoom = digitalZoom > 1.0001 ? " " + ZoomFactor.text(digitalZoom) : ""
        if let countdown {
            let number = color ? "\u{1B}[1;31m\(countdown)…\u{1B}[0m" : "\(countdown)…"
            return "\(number) \(lens)\(zoom) > "
        }
        switch state {
        case .recording:
            let dot = color ? "\u{1B}[31m●\u{1B}[0m" : "●"
            let meter = level.map { " " + self.meter($0) } ?? ""
            return "\(dot) REC scene \(scene) \(time)\(meter) \(lens)\(zoom) > "
        case .paused:
            return "‖ PAUSED scene \(scene) \(time) \(lens)\(zoom) > "
        case .stopping:
            return "… SAVING \(time) \(lens) > "
        case .idle, .finished:
            return "idle \(lens)\(zoom) > "
        }
    }

    /// Cells of the level meter, from `LevelMeter.silenceFloor` (−60 dBFS, empty) to 0 dBFS (full): 15 dB each.
    public static let meterCells = 4

    /// The level meter for a peak of `level` dBFS: block characters filling in eighths on a terminal, `#` (at
    /// least half full), `-` (some) and space in plain text.
    public func meter(_ level: Double) -> String {
        let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let cellWidth = -LevelMeter.silenceFloor / Double(Self.meterCells)
        let cells = (0..<Self.meterCells).map { cell -> Double in
            Swift.min(1, Swift.max(0, (level - LevelMeter.silenceFloor - cellWidth * Double(cell)) / cellWidth))
        }
        if color { return String(cells.map { blocks[Int(($0 * 8).rounded())] }) }
        return "[" + String(cells.map { $0 >= 0.5 ? "#" : $0 > 0 ? "-" : " " }) + "]"
    }

    /// The line shown while a `wait` runs on a terminal: the prompt's live state (without the `> `, since nothing
    /// can be typed), how far the wait is and how to end it. `elapsed` is clamped to the wait's length.
    public func waiting(prompt: String, elapsed: MediaTime, total: MediaTime) -> String {
        var body = prompt
        if body.hasSuffix("> ") { body.removeLast(2) }
        let done = Swift.min(Swift.max(elapsed, .zero), total)
        return body + "· waiting \(DurationParser.clockString(done)) of \(DurationParser.clockString(total))"
            + " (Ctrl-C ends it)"
    }
}
