import Foundation

/// The fields `pausecam ctl watch` prints for each `EngineEvent`: `type` (stable, snake_case), `source` (`engine`,
/// or who gave a command: `shell`, `script`, `remote`, `SIGUSR1`, `SIGUSR2`), `message` (the words the shell prints,
/// for people), and the event's own values. Times are decimal seconds of movie time; paths are absolute.
extension EngineEvent {
    /// The stable name of the event's kind.
    public var typeName: String {
        switch self {
        case .command: return "command"
        case .lensSwitched: return "lens_switched"
        case .lensLive: return "lens_live"
        case .focusAtPoint: return "focus_at_point"
        case .lensLostBeforeFirstFrame: return "lens_lost_before_first_frame"
        case .lensHolding: return "lens_holding"
        case .noCameraLeft: return "no_camera_left"
        case .cameraAttached: return "camera_attached"
        case .cameraLost: return "camera_lost"
        case .cameraFailedToStart: return "camera_failed_to_start"
        case .lensChoiceRefused: return "lens_choice_refused"
        case .lensStoppedForBandwidth: return "lens_stopped_for_bandwidth"
        case .microphoneFailedToStart: return "microphone_failed_to_start"
        case .microphoneAttached: return "microphone_attached"
        case .microphoneStopped: return "microphone_stopped"
        case .microphoneBack: return "microphone_back"
        case .voiceGone: return "voice_gone"
        case .voiceBack: return "voice_back"
        case .voiceSilent: return "voice_silent"
        case .liveStarted: return "live_started"
        case .liveLost: return "live_lost"
        case .liveBack: return "live_back"
        case .voiceClipping: return "voice_clipping"
        case .webcamLost: return "webcam_lost"
        case .followCut: return "follow_cut"
        case .framesDropped: return "frames_dropped"
        case .suspended: return "suspended"
        case .diskLow: return "disk_low"
        case .diskFull: return "disk_full"
        case .recordingFailed: return "recording_failed"
        case .nothingRecorded: return "nothing_recorded"
        case .countdown: return "countdown"
        case .countdownEnded: return "countdown_ended"
        case .clipSaved: return "clip_saved"
        case .clipFailed: return "clip_failed"
        case .movieFileDeleted: return "movie_file_deleted"
        case .warning: return "warning"
        case .notice(let notice): return notice.isWarning ? "warning" : "notice"
        case .cameraRestarting: return "camera_restarting"
        case .cameraRestartFailed: return "camera_restart_failed"
        case .cameraRecovered: return "camera_recovered"
        case .cameraGaveUp: return "camera_gave_up"
        case .recordingTimeLeft(_, let low, _): return low ? "time_left_low" : "time_left_ok"
        }
    }

    /// The event as a JSON object's fields (strings, numbers, booleans).
    public var jsonFields: [String: Any] {
        var fields: [String: Any] = ["type": typeName, "message": text, "source": "engine"]
        switch self {
        case .command(let event):
            fields["source"] = event.source.name
            if case .script(let name) = event.source { fields["script"] = name }
            fields["command"] = event.line
            fields["ok"] = event.ok
            fields["state"] = event.state.rawValue
            fields["scene"] = event.scene
            fields["timer"] = event.movieTime.seconds
            fields["lens"] = event.lens
        case .lensSwitched(let lens), .lensHolding(let lens):
            fields["lens"] = lens
        case .lensLive(let lens, let requested, let effective):
            fields["lens"] = lens
            fields["delay"] = ((try? effective.subtracting(requested)) ?? .zero).seconds
        case .focusAtPoint(let focus):
            fields["lens"] = focus.lens
            fields["x"] = focus.x
            fields["y"] = focus.y
            fields["result"] = focus.result.name
            switch focus.result {
            case .regionOfInterest(let region, let width, let height):
                fields["region"] = ["x": region.x, "y": region.y, "width": region.width, "height": region.height]
                fields["camera_width"] = width
                fields["camera_height"] = height
            case .failed(let reason):
                fields["reason"] = reason
            case .oneShotAutofocus, .noFocusControl:
                break
            }
        case .lensLostBeforeFirstFrame(let lens, let stayingOn):
            fields["lens"] = lens
            fields["staying_on"] = stayingOn
        case .noCameraLeft, .nothingRecorded:
            break
        case .notice(let notice):
            fields["notice"] = notice.name
            switch notice {
            case .standbyChosen(let lens, _, _), .pluggedCameraNotOpened(let lens, _, _), .noCameraMatches(let lens, _),
                 .cameraNotOpened(let lens, _, _):
                fields["lens"] = lens
            default:
                break
            }
        case .cameraAttached(let lens, let camera):
            fields["lens"] = lens
            fields["camera"] = camera
        case .cameraLost(let lens, let reason):
            fields["lens"] = lens
            fields["reason"] = reason
        case .cameraFailedToStart(let lens, let camera, let reason):
            fields["lens"] = lens
            fields["camera"] = camera
            fields["reason"] = reason
        case .lensStoppedForBandwidth(let stopped, let lens, let bus):
            fields["stopped"] = stopped
            fields["lens"] = lens
            fields["bus"] = bus
        case .lensChoiceRefused(let reason), .microphoneStopped(let reason), .recordingFailed(let reason):
            fields["reason"] = reason
        case .microphoneFailedToStart(let microphone, let reason):
            fields["microphone"] = microphone
            fields["reason"] = reason
        case .microphoneAttached(let microphone, let nextClip):
            fields["microphone"] = microphone
            fields["next_clip"] = nextClip
        case .countdown(let secondsLeft):
            fields["seconds_left"] = secondsLeft
        case .countdownEnded(_, let ok):
            fields["ok"] = ok
        case .microphoneBack(let movieTime):
            fields["timer"] = movieTime.seconds
        case .voiceGone(let voice, let reason):
            fields["voice"] = voice
            fields["reason"] = reason
        case .webcamLost(let device, let reason):
            fields["device"] = device
            fields["reason"] = reason
        case .liveStarted(let destination, let address):
            fields["destination"] = destination
            fields["address"] = address
        case .liveLost(let destination, let reason, let retryIn):
            fields["destination"] = destination
            fields["reason"] = reason
            fields["retry_in"] = retryIn.seconds
        case .liveBack(let destination, let outage):
            fields["destination"] = destination
            fields["outage"] = outage.seconds
        case .voiceBack(let voice, let movieTime):
            fields["voice"] = voice
            if let movieTime { fields["timer"] = movieTime.seconds }
        case .voiceSilent(let voice, let seconds):
            fields["voice"] = voice
            fields["seconds"] = seconds
        case .voiceClipping(let voice, let samples):
            fields["voice"] = voice
            fields["samples"] = samples
        case .followCut(let lens, let voices):
            fields["lens"] = lens
            fields["voices"] = voices
        case .framesDropped(let count, let interval):
            fields["count"] = count
            fields["interval"] = interval.seconds
        case .suspended(let duration):
            fields["seconds"] = duration.seconds
        case .diskLow(let free), .diskFull(let free):
            fields["free_bytes"] = free
        case .clipSaved(let clip):
            fields["file"] = clip.moviePath
            fields["scenes"] = clip.scenes
            fields["duration"] = clip.duration.seconds
            fields["dropped_frames"] = clip.droppedFrames
            fields["mailbox_drops"] = Dictionary(uniqueKeysWithValues: clip.mailboxDrops.map { ($0.role, $0.count) })
        case .clipFailed(let moviePath, let reason, let partialKept, let isoPartials):
            fields["file"] = moviePath
            if partialKept { fields["partial"] = moviePath + ".partial" }
            if !isoPartials.isEmpty { fields["iso_partials"] = isoPartials }
            fields["reason"] = reason
        case .movieFileDeleted(let partialPath):
            fields["partial"] = partialPath
        case .warning(let warning, let noted):
            switch warning {
            case .silentMicrophone: fields["reason"] = "silent_microphone"
            case .microphoneRefused: fields["reason"] = "microphone_refused"
            case .settingNotHeld(let lens, _, let mismatch):
                fields["reason"] = "setting_not_held"
                fields["lens"] = lens
                fields["control"] = mismatch.control.rawValue
                fields["asked"] = mismatch.asked
                fields["reported"] = mismatch.reported
            }
            switch noted {
            case .clip: fields["noted"] = "clip"
            case .nextClip: fields["noted"] = "next_clip"
            case .nowhere: fields["noted"] = "nowhere"
            }
        case .cameraRestarting(let lens, let attempt, let of, let reopen, let silence):
            fields["lens"] = lens
            fields["attempt"] = attempt
            fields["attempts"] = of
            fields["step"] = reopen ? "reopen" : "stream"
            fields["silence"] = silence.seconds
        case .cameraRestartFailed(let lens, let attempt, let of, let reason):
            fields["lens"] = lens
            fields["attempt"] = attempt
            fields["attempts"] = of
            fields["reason"] = reason
        case .cameraRecovered(let lens, let restarts):
            fields["lens"] = lens
            fields["restarts"] = restarts
        case .cameraGaveUp(let lens, let restarts, let silence):
            fields["lens"] = lens
            fields["restarts"] = restarts
            fields["silence"] = silence.seconds
        case .recordingTimeLeft(let seconds, _, let rate):
            fields["time_left_s"] = seconds
            fields["bytes_per_second"] = rate.isFinite ? Int64(min(max(rate, 0), 1e15)) : 0
        }
        return fields
    }
}
