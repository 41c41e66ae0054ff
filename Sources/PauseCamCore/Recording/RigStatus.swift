import Foundation

/// What the prompt and `status` show: the live state of a rig, derived from sample timestamps, plus the clips still
/// being finished in the background.
public struct RigStatus: Sendable, Equatable {
    public var state: Session.State
    public var scene: Int
    public var timer: MediaTime
    public var lens: String
    public var digitalZoom: Double
    public var droppedFrames: Int
    public var moviePath: String?
    /// Lens roles that have a camera now, in the rig's order.
    public var lensesWithCamera: [String] = []
    /// Movies stopped but still being finished (remux, thumbnail, sidecar), oldest first: a clip is only safe to
    /// copy once it has left this list.
    public var saving: [String] = []
    /// The microphone's peak over the last 100 ms in dBFS (`LevelMeter`); `nil` without a microphone.
    public var audioPeak: Double? = nil
    /// Seconds left of the countdown before a clip, while one runs (the state is still idle).
    public var countdown: Int? = nil
    /// Samples of the clip's sound at full scale so far (clipped, by the rig's `gain` or before it); `nil` without
    /// a clip with sound.
    public var clippedSamples: Int? = nil
    /// The active lens's own zoom (`zoom:` of its rig entry); the effective zoom is this × `digitalZoom`.
    public var lensZoom: Double = 1
    /// Every voice of a rig of voices, in the rig's order; empty for a rig of one microphone.
    public var voices: [VoiceStatus] = []
    /// Whether `follow` cuts the lens now; `nil` when the rig has no `follow:`.
    public var follow: Bool? = nil
    /// Every live destination and webcam of the rig (`live:`), in the rig's order; empty without one.
    public var live: [LiveSinkStatus] = []
    /// How long recording can go on at the clip's rate before the disk is full (`RecordingTimeLeft`); unknown
    /// until a clip has been measured.
    public var timeLeft = RecordingTimeLeft(freeBytes: nil, keepFree: 0, bytesPerSecond: nil)
    /// The line and the prompt show the time left only below this many seconds (an hour): above it there is room
    /// for any take, and a figure that changes every round would only be noise. `status --json` always has it.
    public static let timeLeftShownBelow = 3600

    /// What the picture shows, relative to a 1x lens: the lens's zoom times the digital zoom (`zoom 2x` that
    /// picked a 2x lens is 2, not the digital 1).
    public var effectiveZoom: Double { lensZoom * digitalZoom }

    /// One line for `status`: `state recording · scene 2 · time 00:00:12.0 · lens main · … · saving clip.mov…`.
    public var line: String {
        var parts = ["state \(state.rawValue)"]
        if let countdown { parts.append("recording in \(countdown) s") }
        if state != .idle && state != .finished {
            parts.append("scene \(scene)")
            parts.append("time \(DurationParser.clockString(timer))")
        }
        parts.append("lens \(lens)" + (digitalZoom > 1.0001 ? " " + ZoomFactor.text(digitalZoom) : ""))
        parts.append("lenses with a camera: \(lensesWithCamera.joined(separator: ","))")
        if droppedFrames > 0 { parts.append("dropped \(droppedFrames)") }
        if let clippedSamples, clippedSamples > 0 { parts.append("clipped \(clippedSamples) samples") }
        if !voices.isEmpty { parts.append("voices " + voices.map(\.summary).joined(separator: ", ")) }
        if let follow { parts.append("follow \(follow ? "on" : "off")") }
        if !live.isEmpty { parts.append(live.map(\.summary).joined(separator: ", ")) }
        if let seconds = timeLeft.seconds, seconds < RigStatus.timeLeftShownBelow {
            parts.append("time left \(RecordingTimeLeft.text(seconds: seconds))" + (timeLeft.isWarning ? " (low)" : ""))
        }
        if let moviePath { parts.append("file \(moviePath)") }
        for path in saving { parts.append("saving \(PathText.lastComponent(of: path))…") }
        return parts.joined(separator: " · ")
    }

    /// "; dropped before the engine (it was busy): main 12, microphone 4800" for the devices whose mailbox dropped
    /// samples during a clip (the saved event and `pausecam run`'s summary); empty when none did.
    public static func mailboxDropText(_ devices: [Sidecar.Device]) -> String {
        let dropped = devices.filter { ($0.dropped ?? 0) > 0 }.map { "\($0.role) \($0.dropped ?? 0)" }
        return dropped.isEmpty ? "" : "; dropped before the engine (it was busy): " + dropped.joined(separator: ", ")
    }
}
