import Foundation

/// The words people read for each `EngineEvent`: the shell's event lines, `pausecam run`'s log and the sidecar's
/// warnings all come from here, so one event reads the same everywhere.
extension EngineEvent {
    /// The event as one (or, for a failed finish, several) lines of text, without the shell's "* " prefix.
    public var text: String {
        switch self {
        case .command(let event):
            return "\(event.line) (\(event.source.name)): \(event.message)"
        case .lensSwitched(let lens):
            return "switched to lens \(lens)"
        case .lensLive(let lens, _, _):
            return "lens \(lens) is live"
        case .focusAtPoint(let focus):
            return focus.text
        case .lensLostBeforeFirstFrame(let lens, let stayingOn):
            return "lens \(lens) went away before its first frame; recording stays on \(stayingOn)"
        case .lensHolding(let lens):
            return "lens \(lens) sends no frames: holding its last picture"
        case .noCameraLeft:
            return "no lens has a camera: recording continues with audio only until a camera is plugged in"
        case .cameraAttached(let lens, let camera):
            return "lens \(lens): \(camera) attached"
        case .cameraLost(let lens, let reason):
            return "lens \(lens) lost its camera: \(reason)"
        case .cameraFailedToStart(let lens, let camera, let reason):
            return "lens \(lens): \(camera) could not start: \(reason)"
        case .lensChoiceRefused(let reason):
            return reason
        case .lensStoppedForBandwidth(let stopped, let lens, let bus):
            return "lens \(lens)'s camera could not start: no USB bandwidth left on \(bus); stopped lens "
                + "\(stopped)'s camera (cold from now on) to make room, and trying again"
        case .microphoneFailedToStart(let microphone, let reason):
            return "microphone \(microphone) could not start: \(reason)"
        case .microphoneAttached(let microphone, let nextClip):
            return nextClip
                ? "microphone \(microphone) attached; this clip was started without sound, the next one records it"
                : "microphone \(microphone) attached"
        case .microphoneStopped(let reason):
            return "microphone stopped: \(reason); the clip goes on with silence"
        case .countdown(let secondsLeft):
            return "\(secondsLeft)…"
        case .countdownEnded(let message, let ok):
            return ok ? message : "the countdown ended, but the clip could not start: \(message)"
        case .voiceGone(let voice, let reason):
            return "voice \(voice): microphone stopped: \(reason); its track goes on with silence"
        case .webcamLost(let device, let reason):
            return "webcam \(device) lost: \(reason); the recording goes on, the webcam returns when the rig starts again"
        case .liveStarted(let destination, let address):
            return "LIVE \(destination): sending to \(address)"
        case .liveLost(let destination, let reason, let retryIn):
            return "live \(destination) lost: \(reason); trying again in \(CommandParser.formatDuration(retryIn))"
        case .liveBack(let destination, let outage):
            // An outage is measured, not typed: whole tenths of a second read better than its exact fraction.
            return "LIVE \(destination) back after \(String(format: "%.1f", outage.seconds)) s"
        case .voiceBack(let voice, let movieTime):
            return "voice \(voice): microphone back" + (movieTime.map { ": sound resumes at \(DurationParser.clockString($0))" } ?? "")
        case .voiceSilent(let voice, let seconds):
            return "voice \(voice) has been silent for \(seconds) s: is its microphone on and unmuted?"
        case .voiceClipping(let voice, let samples):
            return "voice \(voice) is clipping (\(samples) samples at full scale): lower its gain"
        case .followCut(let lens, let voices):
            return "follow: lens \(lens) (" + (voices.isEmpty ? "nobody speaks" : voices.joined(separator: " and ") + (voices.count == 1 ? " speaks" : " speak")) + ")"
        case .microphoneBack(let movieTime):
            return "microphone back: sound resumes at \(DurationParser.clockString(movieTime))"
        case .framesDropped(let count, let interval):
            return "\(count) frames dropped in the last \(DurationParser.clockString(interval)): the encoder cannot "
                + "keep up (a faster preset or a smaller size helps)"
        case .suspended(let duration):
            let tenths = (try? duration.rescaled(to: 10, rounding: .nearest).value) ?? 0
            return "PauseCam was suspended for \(tenths / 10).\(tenths % 10) s: the picture was held"
        case .diskLow(let free):
            return "the disk is almost full: \(HealthCheck.megabytes(free)) left where the clip is written"
        case .diskFull(let free):
            return "the disk is nearly full (\(HealthCheck.megabytes(free)) left): stopping and saving the clip while "
                + "there is room to finish it"
        case .recordingFailed(let reason):
            return "recording failed: \(reason); stopping and keeping what was written"
        case .nothingRecorded:
            return "nothing was recorded: no video frame arrived between record and stop, so no movie was kept"
        case .clipSaved(let clip):
            let drops = clip.mailboxDrops.map { "\($0.role) \($0.count)" }
            return "saved \(clip.moviePath) — \(clip.scenes) scene(s), \(DurationParser.clockString(clip.duration)), "
                + "\(clip.droppedFrames) dropped frame(s)"
                + (drops.isEmpty ? "" : "; dropped before the engine (it was busy): " + drops.joined(separator: ", "))
        case .clipFailed(_, let reason, partialKept: false, _):
            return "the clip could not be finished: \(reason)"
        case .movieFileDeleted(let partialPath):
            return "the movie's file \(partialPath) was deleted while recording (by hand, or with its folder): "
                + "nothing of this clip can be saved; stopping it"
        case .clipFailed(let moviePath, let reason, partialKept: true, let isoPartials):
            let partial = moviePath + ".partial"
            let files = isoPartials.isEmpty ? "\(partial) (it plays as it is)"
                : "\(isoPartials.count + 1) files that play as they are: \(partial), and the ISOs' "
                    + isoPartials.joined(separator: ", ")
            return "the clip could not be finished: \(reason)\n"
                + "  Everything recorded up to then is in \(files).\n"
                + "  To make a normal movie of it once there is room: "
                + "ffmpeg -i \(ShellWord.path(partial)) -map 0:v -map '0:a?' -c copy \(ShellWord.path(moviePath))"
                + (isoPartials.isEmpty ? "" : " (and the same for each ISO)")
        case .warning(let warning, let noted):
            let note: String
            switch noted {
            case .clip: note = " (noted in the clip's sidecar)"
            case .nextClip: note = " (noted in the next clip's sidecar)"
            case .nowhere: note = ""
            }
            return "warning: " + warning.text + note
        case .notice(let notice):
            return notice.text
        case .cameraRestarting(let lens, let attempt, let of, let reopen, let silence):
            return "lens \(lens) has sent no frame for \(Self.tenths(silence)) s: "
                + (reopen ? "closing and reopening its camera" : "restarting its camera's stream")
                + " (attempt \(attempt) of \(of))"
        case .cameraRestartFailed(let lens, let attempt, let of, let reason):
            return "lens \(lens): restart \(attempt) of \(of) failed: \(reason)"
        case .cameraRecovered(let lens, let restarts):
            return "lens \(lens) sends frames again after \(restarts) restart\(restarts == 1 ? "" : "s")"
        case .cameraGaveUp(let lens, let restarts, let silence):
            return "lens \(lens) has sent no frame for \(Self.tenths(silence)) s, even after \(restarts) restarts: "
                + "PauseCam stops trying (the movie holds its last picture, then the slate); unplug and replug its "
                + "camera, or try another USB port"
        case .recordingTimeLeft(let seconds, let low, let rate):
            let left = RecordingTimeLeft.text(seconds: seconds)
            let at = " at \(RecordingTimeLeft.rateText(bytesPerSecond: rate))"
            return low ? "about \(left) of recording left on the disk\(at): free some space or stop soon "
                + "(the clip is stopped and saved before the disk is full)"
                : "recording time left is above \(RecordingTimeLeft.warningSeconds / 60) min again: about \(left)\(at)"
        }
    }

    /// A duration in seconds with one decimal ("2.0"), as the events print it.
    static func tenths(_ duration: MediaTime) -> String {
        let tenths = (try? duration.rescaled(to: 10, rounding: .nearest).value) ?? 0
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension EngineWarning {
    /// The warning's words, as the sidecar keeps them.
    public var text: String {
        switch self {
        case .silentMicrophone(let seconds, let floor):
            return "the microphone has been silent (below \(floor < 0 ? "−" : "")\(Int(abs(floor))) dBFS) for "
                + "\(seconds) s: is it muted or turned down?"
        case .microphoneRefused(let refusal):
            return "\(refusal)"
        case .settingNotHeld(let lens, let camera, let mismatch):
            return "lens \(lens) (\(camera)): \(mismatch) after it started; the picture may not be as set "
                + "(`pausecam devices` lists the camera's values)"
        }
    }
}
