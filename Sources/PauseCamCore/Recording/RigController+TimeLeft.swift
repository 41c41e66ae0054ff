import Foundation

/// The recording time left (`RecordingTimeLeft`): measured at each health round while a clip records, from the
/// growth of the clip's files (`DataRateMeter`) and the free space the round read; told once when it falls to ten
/// minutes and once when it clears (`RecordingTimeAlarm`). While idle, the last clip's rate and the free space read
/// at most once a health interval, so a status bar polling four times a second costs one `statvfs` every 2 s.
extension RigController {
    /// What the controller keeps between rounds and clips.
    struct TimeLeftWatch {
        /// The clip measured now (a new recorder starts a new measurement and a new alarm).
        var clip: ObjectIdentifier?
        var meter = DataRateMeter()
        var alarm = RecordingTimeAlarm()
        /// The newest measured rate, kept after its clip: what the next clip (and the idle rig) is expected to cost.
        var lastRate: Double?
        var freeBytes: Int64?
        /// When `freeBytes` was read (clock time).
        var freeReadAt: MediaTime?
        /// What must stay free beyond the stop threshold: the recording clip's finishing reserve.
        var finishingBytes: Int64 = 0
    }

    /// One health round of `recorder`: the files' sizes now, the free space the round read and what finishing
    /// needs. Tells the alarm's event, if any.
    func measureTimeLeft(of recorder: Recorder, freeBytes: Int64?, finishingBytes: Int64) {
        let now = serialContext.clock.now()
        let id = ObjectIdentifier(recorder)
        if timeLeftWatch.clip != id {
            timeLeftWatch.clip = id
            timeLeftWatch.meter = DataRateMeter()
            timeLeftWatch.alarm = RecordingTimeAlarm()
        }
        let storage = clips.storage
        let written = recorder.writtenFiles.reduce(Int64(0)) { total, path in
            let size = storage?.fileSize(at: path) ?? 0
            return total.addingReportingOverflow(size).overflow ? Int64.max : total + size
        }
        timeLeftWatch.meter.sample(bytes: written, at: now, recording: recorder.session.state == .recording)
        if let rate = timeLeftWatch.meter.bytesPerSecond { timeLeftWatch.lastRate = rate }
        timeLeftWatch.freeBytes = freeBytes
        timeLeftWatch.freeReadAt = now
        timeLeftWatch.finishingBytes = finishingBytes
        if let event = timeLeftWatch.alarm.update(recordingTimeLeft) { notify(event) }
    }

    /// The time left now, for `status`: unknown until a clip's rate was measured in this session.
    var recordingTimeLeft: RecordingTimeLeft {
        let recording = clips.recorder.map { $0.session.state == .recording || $0.session.state == .paused } ?? false
        let rate = recording ? timeLeftWatch.meter.bytesPerSecond ?? timeLeftWatch.lastRate : timeLeftWatch.lastRate
        guard rate != nil else { return RecordingTimeLeft(freeBytes: nil, keepFree: 0, bytesPerSecond: nil) }
        if !recording {
            let now = serialContext.clock.now()
            if timeLeftWatch.freeReadAt.map({ now - $0 >= clips.storagePolicy.interval || now < $0 }) ?? true {
                timeLeftWatch.freeBytes = clips.storage?.availableBytes(at: clips.outputDirectory)
                timeLeftWatch.freeReadAt = now
            }
            timeLeftWatch.finishingBytes = 0
        }
        let keep = clips.storagePolicy.stopBelow.addingReportingOverflow(timeLeftWatch.finishingBytes)
        return RecordingTimeLeft(freeBytes: timeLeftWatch.freeBytes, keepFree: keep.overflow ? Int64.max : keep.partialValue,
                                 bytesPerSecond: rate)
    }

    /// Starts the idle rig off with a rate measured before this session (the last clip in the output folder), so
    /// the time left is known before the first clip; a clip's own measurement replaces it.
    public func expectRecordingRate(bytesPerSecond: Double) {
        serialContext.assertOnSerialContext()
        guard bytesPerSecond.isFinite, bytesPerSecond > 0, timeLeftWatch.lastRate == nil else { return }
        timeLeftWatch.lastRate = bytesPerSecond
    }
}
