import Foundation

extension DoctorExamination {
    /// The recording time left in the output folder at the rate of the newest clip there (`ClipRate`), judged as a
    /// session judges it (`RecordingTimeLeft`: what the stop threshold keeps free is not usable): a warning at ten
    /// minutes or less. `nil` when the folder holds no clip, or the free space is unknown or already below the stop
    /// threshold (the disk findings say so).
    static func recordingTimeLeft(_ folder: DoctorFacts.OutputFolder) -> DoctorFinding? {
        guard let free = folder.availableBytes, free >= folder.stopBelow else { return nil }
        // Without a clip there the rate is unknown (x264's crf makes it the picture's): nothing to say.
        guard let clip = folder.lastClip else { return nil }
        let left = RecordingTimeLeft(freeBytes: free, keepFree: folder.stopBelow, bytesPerSecond: clip.bytesPerSecond)
        guard let seconds = left.seconds else { return nil }
        let text = "recording time left: about \(RecordingTimeLeft.text(seconds: seconds)) at "
            + "\(RecordingTimeLeft.rateText(bytesPerSecond: clip.bytesPerSecond)), the rate of \(clip.movie), the "
            + "newest clip there"
        guard left.isWarning else { return DoctorFinding(.ok, text) }
        return DoctorFinding(.warning, text, why: "a longer take is stopped and saved when the disk fills",
                             fixes: ["free some space, or record to another disk with --output"])
    }
}
