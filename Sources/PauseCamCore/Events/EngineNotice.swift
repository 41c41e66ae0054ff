import Foundation

/// A fact from setting the rig up (devices found or not, the encoder measured, the hot-plug watchers) or from the
/// rig's group, told as `EngineEvent.notice`: one case per fact, so a listener routes on the case and never on
/// words. Whether the user should act on it is the case's (`isWarning`), and `text` the line people read.
public enum EngineNotice: Sendable, Equatable {
    /// `standby: auto` chose `standby` (`hot` or `cold`) for `lens`, for `reason`.
    case standbyChosen(lens: String, standby: String, reason: String)
    /// The rig has `audio: none`: the movie has no sound track.
    case videoOnly
    /// The encoder's speed is being measured once for this size and rate; the result goes to `cachePath`.
    case measuringEncoder(width: Int, height: Int, rate: String, cachePath: String)
    /// A camera matching `lens` was plugged in at `device` but could not be opened.
    case pluggedCameraNotOpened(lens: String, device: String, reason: String)
    /// What the rig's group said (`GroupNotice`); a warning or not as the group notice is.
    case group(GroupNotice)
    /// This member is idle while its group records: the group's `command` from `host` starts a clip here.
    case joiningGroupRecording(command: String, host: String)

    /// The cameras could not be listed (udev): no real lens has a camera.
    case camerasNotListed(reason: String)
    /// No camera present matches `lens`'s rule.
    case noCameraMatches(lens: String, rule: String)
    /// The camera at `device` matches `lens` but could not be opened.
    case cameraNotOpened(lens: String, device: String, reason: String)
    /// `--clock simulated` cannot drive the real `microphone`: the movie records video only.
    case microphoneNeedsRealClock(microphone: String)
    /// `--clock simulated` cannot drive the real cameras of `lenses`: they have no camera in this run.
    case camerasNeedRealClock(lenses: [String])
    /// The rig's `microphone` could not be opened: the movie records video only.
    case microphoneNotOpened(microphone: String, reason: String)
    /// A camera delivers fewer frames than the movie's rate (`CameraRateAdvice`'s words: what to change).
    case cameraSlowerThanMovie(advice: String)
    /// A device driver's own remark on opening (a rate or control it did not take, timestamps it cannot give),
    /// in the driver layer's words.
    case deviceRemark(String)
    /// `preset: auto` could not measure the encoder and uses `preset`.
    case encoderNotMeasured(preset: String)
    /// The preset (named or chosen) is too slow by the measurement (`EncoderPresetChoice.warning`'s words).
    case presetTooSlow(advice: String)
    /// The encoder's measurement could not be cached: it serves this run only.
    case encoderSpeedNotCached(reason: String)
    /// The camera hot-plug watcher could not start: cameras plugged in later are not seen.
    case cameraWatchNotStarted(reason: String)
    /// The sound card watcher could not start: a microphone plugged in later is not seen.
    case microphoneWatchNotStarted(reason: String)
    /// The group's broker has not answered yet: commands given here apply on this member only until it does.
    case groupNotAnswering(group: String, broker: String)
    /// The group member could not start.
    case groupNotStarted(group: String, reason: String)
    /// The microphone on a sound card plugged in (`card`, `name`) could not be opened.
    case pluggedMicrophoneNotOpened(card: Int, name: String, reason: String)
    /// A tally output (`tally.tsl`, `tally.gpio`) could not be opened or written; told once per output, recording
    /// goes on.
    case tallyNotShown(output: String, reason: String)

    /// Whether the user should act on it (printed as "warning: …", JSON `type` `warning`).
    public var isWarning: Bool {
        switch self {
        case .standbyChosen, .videoOnly, .measuringEncoder, .pluggedCameraNotOpened, .joiningGroupRecording:
            return false
        case .group(let notice):
            return notice.isWarning
        default:
            return true
        }
    }

    /// The stable snake_case name of the fact, for programs (`pausecam ctl watch`'s `notice` field).
    public var name: String {
        switch self {
        case .standbyChosen: return "standby_chosen"
        case .videoOnly: return "video_only"
        case .measuringEncoder: return "measuring_encoder"
        case .pluggedCameraNotOpened: return "plugged_camera_not_opened"
        case .group: return "group"
        case .joiningGroupRecording: return "joining_group_recording"
        case .camerasNotListed: return "cameras_not_listed"
        case .noCameraMatches: return "no_camera_matches"
        case .cameraNotOpened: return "camera_not_opened"
        case .microphoneNeedsRealClock: return "microphone_needs_real_clock"
        case .camerasNeedRealClock: return "cameras_need_real_clock"
        case .microphoneNotOpened: return "microphone_not_opened"
        case .cameraSlowerThanMovie: return "camera_slower_than_movie"
        case .deviceRemark: return "device_remark"
        case .encoderNotMeasured: return "encoder_not_measured"
        case .presetTooSlow: return "preset_too_slow"
        case .encoderSpeedNotCached: return "encoder_speed_not_cached"
        case .cameraWatchNotStarted: return "camera_watch_not_started"
        case .microphoneWatchNotStarted: return "microphone_watch_not_started"
        case .groupNotAnswering: return "group_not_answering"
        case .groupNotStarted: return "group_not_started"
        case .pluggedMicrophoneNotOpened: return "plugged_microphone_not_opened"
        case .tallyNotShown: return "tally_not_shown"
        }
    }

    /// The line people read: `words`, after "warning: " when it is a warning.
    public var text: String { isWarning ? "warning: " + words : words }

    /// The fact in words, without the "warning: " mark (as a clip's sidecar keeps a set-up warning).
    public var words: String {
        switch self {
        case .standbyChosen(let lens, let standby, let reason):
            return "lens \(lens): standby auto: \(standby) (\(reason))"
        case .videoOnly:
            return "audio: none — recording video only"
        case .measuringEncoder(let width, let height, let rate, let cachePath):
            return "measuring encoder speed… (once for \(width)x\(height) at \(rate) fps; cached in \(cachePath))"
        case .pluggedCameraNotOpened(let lens, let device, let reason):
            return "lens \(lens): \(device) was plugged in but cannot be opened: \(reason)"
        case .group(let notice):
            return "group: " + notice.text
        case .joiningGroupRecording(let command, let host):
            return "group: the group is recording; this member joins at its scene boundary "
                + "(\"\(command)\" from \(host) starts a clip here)"
        case .camerasNotListed(let reason):
            return "cameras could not be listed: \(reason)"
        case .noCameraMatches(let lens, let rule):
            return "lens \(lens): no camera matches \(rule); see `pausecam devices`"
        case .cameraNotOpened(let lens, let device, let reason):
            return "lens \(lens): \(device) could not be opened: \(reason)"
        case .microphoneNeedsRealClock(let microphone):
            return "--clock simulated cannot drive the real microphone \(microphone); recording video only"
        case .camerasNeedRealClock(let lenses):
            let plural = lenses.count > 1
            return "--clock simulated drives virtual and file lenses only: lens\(plural ? "es" : "") "
                + "\(lenses.joined(separator: ", ")) \(plural ? "are real cameras and have" : "is a real camera and has") "
                + "no camera in this run; chosen, \(plural ? "they show" : "it shows") the no-camera slate"
        case .microphoneNotOpened(let microphone, let reason):
            return "microphone \(microphone) cannot be opened (\(reason)); recording video only"
        case .cameraSlowerThanMovie(let advice), .presetTooSlow(let advice):
            return advice
        case .deviceRemark(let remark):
            return remark
        case .encoderNotMeasured(let preset):
            return "the encoder speed could not be measured; preset auto uses \(preset)"
        case .encoderSpeedNotCached(let reason):
            return reason
        case .cameraWatchNotStarted(let reason):
            return "cameras plugged in later will not be seen: \(reason)"
        case .microphoneWatchNotStarted(let reason):
            return "a microphone plugged in later will not be seen: \(reason)"
        case .groupNotAnswering(let group, let broker):
            return "group \(group): no answer from \(broker) yet; commands given here apply on this member only "
                + "until it answers"
        case .groupNotStarted(let group, let reason):
            return "group \(group): \(reason)"
        case .pluggedMicrophoneNotOpened(let card, let name, let reason):
            return "the microphone on sound card \(card) (\(name)) was plugged in but cannot be opened: \(reason); "
                + "recording goes on without sound"
        case .tallyNotShown(let output, let reason):
            return "tally \(output): \(reason); recording goes on without it"
        }
    }
}

extension GroupNotice {
    /// Whether the user should act on it: joining, the broker back, the clock healthy again and a `record` refused
    /// on an unsynchronised clock are told as news; every other group notice is a warning.
    public var isWarning: Bool {
        switch self {
        case .joined, .brokerBack: return false
        case .clockHealth(let health): return health != .ok
        case .unsynchronisedRecord(let applied, _): return applied
        default: return true
        }
    }
}
