import PauseCamCore

/// When the virtual rig's sync marks happen: the flash on the first video frame at or after each whole second of
/// the clock, and the beep (1 kHz, −6 dBFS, 100 ms) starting exactly at each whole second. Tests measure A/V sync by
/// finding both in the decoded movie, so this contract is shared by the lens, the microphone and the tests.
public enum SyncSchedule {
    /// The sync beep's pitch.
    public static let beepFrequency = 1000
    /// The sync beep's length.
    public static let beepDuration = MediaTime.milliseconds(100)
    /// The sync beep's amplitude, −6 dBFS of full-scale 16-bit.
    public static let beepAmplitude: Int16 = 16_422

    /// True when a frame at `pts` is the first one at or after a whole second, given the previous frame's time.
    public static func isFlashFrame(pts: MediaTime, previous: MediaTime?) -> Bool {
        let second = (try? pts.rescaled(to: 1, rounding: .down).value) ?? 0
        let onSecond = MediaTime(value: second, timescale: 1) 
        guard let previous else { return pts == onSecond }
        return previous < onSecond
    }
}
