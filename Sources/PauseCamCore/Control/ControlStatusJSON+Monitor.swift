import Foundation

/// The status fields the browser monitor reads beside the shell's: which lenses have a camera and the single
/// microphone's level, so a tile can say "no camera" and a plain rig's sound has a meter as a voice does.
extension ControlStatusJSON {
    /// `lenses_with_camera`: the lens roles that have a camera now, in rig order. `microphone`, only for a rig of
    /// one microphone that has one: `peak_dbfs` (dBFS to one decimal over the last 100 ms; null for silence) and
    /// `clipped_samples` (samples of the clip at full scale so far; null without a clip with sound).
    static func monitorFields(_ status: RigController.Status) -> [String: Any] {
        var fields: [String: Any] = ["lenses_with_camera": status.lensesWithCamera]
        if let peak = status.audioPeak, status.voices.isEmpty {
            fields["microphone"] = [
                "peak_dbfs": peak <= SoundLevel.floor ? NSNull() : oneDecimal(peak),
                "clipped_samples": status.clippedSamples.map { $0 as Any } ?? NSNull(),
            ] as [String: Any]
        }
        return fields
    }
}
