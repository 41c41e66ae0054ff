import PauseCamCore

/// The shell's prompt, which shows the live state: `● REC scene 3 00:01:23.4 main 2.0x >`,
/// `‖ PAUSED scene 3 00:01:23.4 main >`, `idle main >`. Plain text when colour is off (`NO_COLOR`, not a terminal).
public struct PromptFormatter: Sendable {
    public var color: Bool
    public init(color: Bool) { self.color = color }

    /// The prompt for a session `state` at `scene` with the timer, the active lens and its digital zoom.
    public func prompt(state: Session.State, scene: Int, timer: MediaTime, lens: String, digitalZoom: Double) -> String {
        let time = DurationParser.clockString(timer)
        let zoom = digitalZoom > 1.0001 ? " " + String(format: "%.1fx", digitalZoom) : ""
        switch state {
        case .recording:
            let dot = color ? "\u{1B}[31m●\u{1B}[0m" : "●"
            return "\(dot) REC scene \(scene) \(time) \(lens)\(zoom) > "
        case .paused:
            return "‖ PAUSED scene \(scene) \(time) \(lens)\(zoom) > "
        case .stopping:
            return "… SAVING \(time) \(lens) > "
        case .idle, .finished:
            return "idle \(lens)\(zoom) > "
        }
    }
}

import Foundation
