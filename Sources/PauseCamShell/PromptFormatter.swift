import PauseCamCore

/// The shell's prompt, which shows the live state: `● REC scene 3 00:01:23.4 ▆▆▃  main 2x >`,
/// `‖ PAUSED scene 3 00:01:23.4 main >`, `idle main >`, `3… main >` during the countdown before a clip. Plain text when colour is off (`NO_COLOR`, not a terminal):
/// then the level meter is `[##- ]`. A rig of voices shows a compact meter per voice instead of the one meter:
/// `● REC scene 1 00:00:12.0 host▮▮▮▯ guest▮▯▯▯ main >` (`voiceMeters`).
public struct PromptFormatter: Sendable {
    public var color: Bool
    public init(color: Bool) { self.color = color }

    /// The prompt for a session `state` at `scene` with the timer, the active lens and its digital zoom.
    /// `level` is the microphone's recent peak in dBFS (`nil`: no microphone), shown as a meter while recording;
    /// `countdown` the seconds left before a clip starts, while it counts down. `voices`, when not empty (a rig of
    /// voices), are shown as a meter each instead of `level`'s. `live`, the rig's live outputs (`live:`), puts
    /// `LIVE ` before it all while every one that is on sends, `LIVE 1/2 ` while some are lost; nothing when none is on.
    /// `lensZoom`, the lens's own zoom in the rig, makes a digital zoom read as the total and its parts
    /// (`4x = tele 2x × digital 2x`), as `zoom` replies, so the crop never passes for the whole zoom.
    public func prompt(state: Session.State, scene: Int, timer: MediaTime, lens: String, digitalZoom: Double,
                       lensZoom: Double? = nil, level: Double? = nil, countdown: Int? = nil,
                       voices: [VoiceStatus] = [], live: [LiveSinkStatus] = []) -> String {
        let shown: String
        if let lensZoom, digitalZoom > 1.0001 {
            shown = "\(ZoomFactor.text(lensZoom * digitalZoom)) = \(lens) \(ZoomFactor.text(lensZoom)) × digital "
                + ZoomFactor.text(digitalZoom)
        } else {
            shown = lens + (digitalZoom > 1.0001 ? " " + ZoomFactor.text(digitalZoom) : "")
        }
        return liveMark(live) + stateText(state: state, scene: scene, timer: timer, lens: shown, level: level,
                                          countdown: countdown, voices: voices)
    }

    /// `LIVE ` (or `LIVE 1/2 ` while some are lost) when any live output is on; empty otherwise.
    func liveMark(_ live: [LiveSinkStatus]) -> String {
        let on = live.filter(\.on)
        guard !on.isEmpty else { return "" }
        let sending = on.filter(\.live).count
        let text = sending == on.count ? "LIVE" : "LIVE \(sending)/\(on.count)"
        return (color ? "\u{1B}[1;35m\(text)\u{1B}[0m" : text) + " "
    }

    /// `lens` is the lens with its zoom as the prompt shows it.
    private func stateText(state: Session.State, scene: Int, timer: MediaTime, lens: String,
                           level: Double?, countdown: Int?, voices: [VoiceStatus]) -> String {
        let time = DurationParser.clockString(timer)
        if let countdown {
            let number = color ? "\u{1B}[1;31m\(countdown)…\u{1B}[0m" : "\(countdown)…"
            return "\(number) \(lens) > "
        }
        switch state {
        case .recording:
            let dot = color ? "\u{1B}[31m●\u{1B}[0m" : "●"
            let meter = !voices.isEmpty ? " " + voiceMeters(voices) : level.map { " " + self.meter($0) } ?? ""
            return "\(dot) REC scene \(scene) \(time)\(meter) \(lens) > "
        case .paused:
            return "‖ PAUSED scene \(scene) \(time) \(lens) > "
        case .stopping:
            return "… SAVING \(time) \(lens) > "
        case .idle, .finished:
            return "idle \(lens) > "
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

    /// The most columns the voices' meters take together before their names are cut (`voiceMeters`): four
    /// voices with three-letter names fit, so the typed line keeps most of an 80-column terminal.
    public static let voiceMetersWidth = 32

    /// The shortest a cut voice name gets (unless two voices would then look alike).
    static let shortestVoiceName = 3

    /// One meter per voice, in rig order, separated by spaces: the name, then `meterCells` cells, each lit when at
    /// least half full (`▮`, else `▯`; `#` and `.` in brackets in plain text: `host[###.]`), then `!` while the
    /// voice clips. A muted voice shows `host×` (still `!` when it clips: its own track records it), a gone one
    /// `host–`. When the whole is wider than `voiceMetersWidth`, every name is cut to the same length, the longest
    /// that fits but never under `shortestVoiceName` characters, and longer again if two cut names would be equal.
    public func voiceMeters(_ voices: [VoiceStatus]) -> String {
        let longest = voices.map(\.name.count).max() ?? 0
        var length = longest
        while length > Self.shortestVoiceName, width(of: voices, nameLength: length) > Self.voiceMetersWidth {
            length -= 1
        }
        while length < longest, Set(voices.map { String($0.name.prefix(length)) }).count < Set(voices.map(\.name)).count {
            length += 1
        }
        return voices.map { segment($0, nameLength: length) }.joined(separator: " ")
    }

    /// The columns `voiceMeters` takes with names cut to `nameLength` (what is seen: no escape sequences).
    private func width(of voices: [VoiceStatus], nameLength: Int) -> Int {
        let meterWidth = Self.meterCells + (color ? 0 : 2)
        return voices.map { voice in
            Swift.min(voice.name.count, nameLength) + (voice.gone || voice.muted ? 1 : meterWidth)
                + (voice.clipping && !voice.gone ? 1 : 0)
        }.reduce(Swift.max(0, voices.count - 1), +)
    }

    /// One voice's meter.
    private func segment(_ voice: VoiceStatus, nameLength: Int) -> String {
        let name = String(voice.name.prefix(nameLength))
        if voice.gone { return color ? name + "\u{1B}[2m–\u{1B}[0m" : name + "–" }
        let clip = voice.clipping ? (color ? "\u{1B}[1;31m!\u{1B}[0m" : "!") : ""
        if voice.muted { return (color ? name + "\u{1B}[2m×\u{1B}[0m" : name + "×") + clip }
        let lit = litCells(voice.peakDBFS), unlit = Self.meterCells - lit
        if color { return name + String(repeating: "▮", count: lit) + String(repeating: "▯", count: unlit) + clip }
        return name + "[" + String(repeating: "#", count: lit) + String(repeating: ".", count: unlit) + "]" + clip
    }

    /// How many of the meter's cells a peak of `level` dBFS lights: those at least half full (`nil`: silence).
    private func litCells(_ level: Double?) -> Int {
        guard let level, level.isFinite else { return 0 }
        let cellWidth = -LevelMeter.silenceFloor / Double(Self.meterCells)
        let filled = ((level - LevelMeter.silenceFloor) / cellWidth + 0.5).rounded(.down)
        return Int(Swift.min(Double(Self.meterCells), Swift.max(0, filled)))
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
