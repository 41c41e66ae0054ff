import Foundation

/// The slow part of finishing a clip, handed over by `Recorder.prepareFinish` on the serial context and run on a
/// worker: drain the encoder, remux the `.partial` with the chapters, write the thumbnail and the final sidecar.
///
/// It owns the sink from the hand-over on (nothing on the serial context touches it again), and carries the
/// sidecars already made from the recorder's state, so running it needs nothing of the engine: everything in it is
/// `Sendable` (the sink and the sidecar writer are used by one thread at a time, first the context's, then the
/// worker's).
public struct ClipFinishJob: Sendable {
    let sink: any MovieSink
    let sidecars: SidecarWriter
    /// One per scene that got frames.
    public let chapters: [Chapter]
    /// The spans of the `.partial` (its file time) that `retake` discarded: the movie leaves them out.
    public let discardedSpans: [Range<MediaTime>]
    /// How many of the frames the sink wrote lie in `discardedSpans`: the movie's count leaves them out.
    let discardedVideoFrames: Int
    let sidecarPath: String
    /// The sidecar as of the stop, `complete: false`: written when the movie cannot be finished.
    let interimSidecar: Sidecar
    /// The sidecar of the finished movie, before the sink's summary is added.
    let finishedSidecar: Sidecar
    /// The sink failed while recording (disk full…): the job only writes what it can and throws this.
    let sinkError: Error?
    /// The clip's duration.
    public let timer: MediaTime
    /// Exports written beside the finished movie (`output.exports`).
    let exports: [ExportFormat]
    /// Frames dropped catching up after a suspension of the process: not the encoder's fault (the sidecar's
    /// warnings say the suspension instead).
    var suspendedDrops = 0
    /// The clip's ISO movies (`IsoRecorder`), finished after the program with its chapters and discarded takes.
    var isos: [Iso] = []
    /// The voices' own files (`NAME.iso/VOICE.wav`), finished after the program with its discarded takes left out.
    var voiceWaves: [VoiceWave] = []

    /// One voice's file handed over with the clip: its sink (owned by the job from now on) and the error that
    /// stopped it while recording, if one did.
    struct VoiceWave: Sendable {
        let sink: any VoiceWaveSink
        var failure: String?
    }

    /// One ISO movie handed over with the clip: its sink (owned by the job from now on), its sidecar entry as of
    /// the stop, and what the finish corrects.
    struct Iso: Sendable {
        let sink: any MovieSink
        var entry: Sidecar.IsoMovie
        /// Frames in takes `retake` discarded: the movie leaves them out.
        var discardedFrames: Int
        /// The ISO stopped on this sink error while recording: its `.partial` is kept as it is.
        var failure: Error?
    }

    /// Where the finished movie goes.
    public var moviePath: String { sink.moviePath }

    /// Finishes the movie and writes the final sidecar; throws when the movie could not be finished (the
    /// `.partial` then holds the recording, and the sidecar says why).
    public func run() throws -> Recorder.Clip {
        if sink.partialFileDeleted {
            // Nothing of the movie is left to finish: say so, and keep the sidecar if its folder is still there.
            sink.abort()
            for iso in isos { iso.sink.abort() }
            for wave in voiceWaves { wave.sink.abort() }
            // The health check has told the clip already, unless the file went after its last round.
            let told = interimSidecar.warnings.contains { $0.hasPrefix("the movie's file \(sink.partialPath) was deleted") }
            let kept = writeInterim(warning: told ? nil : "the movie's file \(sink.partialPath) was deleted while "
                                    + "recording: the movie could not be saved")
            throw MovieFileDeleted(partialPath: sink.partialPath, sidecarPath: kept ? sidecarPath : nil)
        }
        if let sinkError {
            sink.abort()
            for iso in isos { iso.sink.abort() }
            for wave in voiceWaves { wave.sink.abort() }
            if !writeInterim(warning: nil) { throw SidecarNotUpdated(failure: sinkError, sidecarPath: sidecarPath) }
            throw sinkError
        }
        let summary: MovieSummary
        if let timecode = finishedSidecar.timecode { sink.setTimecode(startFrame: timecode.startFrame) }
        do {
            summary = try sink.finish(chapters: chapters, discarding: discardedSpans)
        } catch {
            for iso in isos { iso.sink.abort() }
            for wave in voiceWaves { wave.sink.abort() }
            if !writeInterim(warning: "the movie could not be finished: \(error)") {
                throw SidecarNotUpdated(failure: error, sidecarPath: sidecarPath)
            }
            throw error
        }
        var sidecar = finishedSidecar
        if !isos.isEmpty { sidecar.iso = finishIsos(warnings: &sidecar.warnings) }
        finishVoiceWaves(warnings: &sidecar.warnings)
        sidecar.video.framesWritten = summary.videoFramesWritten - discardedVideoFrames
        sidecar.video.framesDropped = summary.videoFramesDropped
        if sidecar.audio != nil {
            sidecar.audio?.samplesWritten = summary.audioSamplesWritten
            sidecar.audio?.samplesDropped = summary.audioSamplesDropped
            if summary.audioStalls.count > 0 { sidecar.audio?.stalls = summary.audioStalls }
        }
        if summary.audioSamplesDropped > 0 {
            sidecar.warnings.append("\(summary.audioSamplesDropped) audio samples dropped (silence in the movie): "
                                    + "the encoder fell behind")
        }
        let encoderDrops = summary.videoFramesDropped - min(suspendedDrops, summary.videoFramesDropped)
        if encoderDrops > 0 {
            sidecar.warnings.append("\(encoderDrops) frames dropped: the encoder fell behind")
        }
        sidecar.warnings += sidecars.writeExports(of: sidecar, movieURL: URL(fileURLWithPath: summary.path),
                                                  formats: exports)
        for failure in sidecars.takeFailures() { sidecar.warnings.append("the sidecar could not be written: \(failure)") }
        for device in sidecar.devices where (device.dropped ?? 0) > 0 {
            let unit = device.role == "microphone" ? "audio sample frames" : "frames"
            sidecar.warnings.append("\(device.dropped ?? 0) \(unit) from \(device.role) dropped before the engine "
                                    + "could take them: it was busy")
        }
        do {
            try sidecars.writeNow(try sidecar.encoded(), to: sidecarPath)
        } catch {
            // The movie is finished and safe; only its final sidecar is missing (the last scene-boundary one stays).
            sidecar.warnings.append("the final sidecar could not be written: \(error)")
        }
        return Recorder.Clip(moviePath: summary.path, sidecarPath: sidecarPath,
                             thumbnailPath: summary.thumbnailPath, sidecar: sidecar)
    }

    /// Finishes every ISO movie as the program was (its chapters, its discarded takes left out) and gives their
    /// sidecar entries; an ISO that failed keeps its `.partial`, and a warning says so. The program is saved
    /// whatever becomes of its ISOs.
    private func finishIsos(warnings: inout [String]) -> [Sidecar.IsoMovie] {
        isos.map { iso in
            var entry = iso.entry
            entry.timecode = finishedSidecar.iso?.first { $0.file == entry.file }?.timecode
            if let timecode = entry.timecode { iso.sink.setTimecode(startFrame: timecode.startFrame) }
            if let failure = iso.failure {
                iso.sink.abort()
                warnings.append("the ISO of lens \(entry.lens) stopped while recording: \(failure); what it holds "
                                + "stays in \(iso.sink.partialPath)")
                return entry
            }
            do {
                let summary = try iso.sink.finish(chapters: chapters, discarding: discardedSpans)
                entry.frames = summary.videoFramesWritten - iso.discardedFrames
                if summary.videoFramesDropped > 0 {
                    warnings.append("\(summary.videoFramesDropped) frames dropped in the ISO of lens \(entry.lens): "
                                    + "the encoder fell behind")
                }
                if summary.audioSamplesDropped > 0 {
                    warnings.append("\(summary.audioSamplesDropped) audio samples missing in the ISO of lens "
                                    + "\(entry.lens): its writer fell behind the program's sound")
                }
            } catch {
                warnings.append("the ISO of lens \(entry.lens) could not be finished: \(error); what it holds stays "
                                + "in \(iso.sink.partialPath)")
            }
            return entry
        }
    }

    /// Finishes every voice's file with the program's discarded takes left out; one that failed, or cannot be
    /// finished, stays as it is (readable, as after a crash) and a warning says so. The program is saved whatever
    /// becomes of them.
    private func finishVoiceWaves(warnings: inout [String]) {
        for wave in voiceWaves {
            if let failure = wave.failure {
                wave.sink.abort()
                warnings.append("the sound file of voice \(wave.sink.voice) stopped while recording: \(failure); "
                                + "what it holds stays in \(wave.sink.path)")
                continue
            }
            do {
                let summary = try wave.sink.finish(discarding: discardedSpans)
                if summary.samplesDropped > 0 {
                    warnings.append("\(summary.samplesDropped) samples of voice \(wave.sink.voice)'s sound file are "
                                    + "silence: its writer fell behind")
                }
            } catch {
                warnings.append("the sound file of voice \(wave.sink.voice) could not be finished: \(error); what it "
                                + "holds stays in \(wave.sink.path)")
            }
        }
    }

    /// Writes the sidecar of a clip that could not be finished; true when it was written.
    @discardableResult
    private func writeInterim(warning: String?) -> Bool {
        var sidecar = interimSidecar
        if let warning { sidecar.warnings.append(warning) }
        return (try? sidecars.writeNow(try sidecar.encoded(), to: sidecarPath)) != nil
    }

    /// The clip failed, and its sidecar could not be brought up to date either (on a full disk, the same lack of room):
    /// the sidecar on disk is the last one written (at the first frame or a scene boundary), and its counts (frames,
    /// ISO frames) are as of then.
    public struct SidecarNotUpdated: Error, CustomStringConvertible, Sendable {
        public var failure: String
        public var sidecarPath: String

        init(failure: Error, sidecarPath: String) {
            self.failure = "\(failure)"
            self.sidecarPath = sidecarPath
        }

        public var description: String {
            "\(failure); the sidecar \(sidecarPath) could not be brought up to date either: it shows the clip as of "
                + "its last write (at the first frame or a scene boundary)"
        }
    }

    /// The `.partial` was deleted while recording (by hand, or with its folder): no movie can be made of it.
    public struct MovieFileDeleted: Error, CustomStringConvertible, Sendable {
        public var partialPath: String
        /// The sidecar written for the clip, if its folder was still there.
        public var sidecarPath: String?

        public var description: String {
            "the movie's file \(partialPath) was deleted while recording, so nothing of the movie could be saved; "
                + (sidecarPath.map { "its sidecar \($0) is kept (scenes, markers, warnings)" }
                    ?? "nothing else of the clip was saved either (its folder is gone)")
        }
    }
}
