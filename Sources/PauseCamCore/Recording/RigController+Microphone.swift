import Foundation

/// The microphone's life after start: it ends by itself (unplugged: ALSA says so through `onEnd`), or the udev
/// watcher sees its card go (`detachMicrophone`); either way the clip goes on with silence. When a card the rig's
/// `audio` rule names is plugged back, the composition root opens it and hands it here (`attachMicrophone`): it
/// replaces the ended one, starts with a fresh mailbox, and sound resumes at its own capture time.
extension RigController {
    /// Why a re-plugged microphone was not taken.
    public enum MicrophoneRefusal: Error, Equatable, CustomStringConvertible {
        /// The rig's microphone still runs: a second card matching the rule, or an add seen before the remove.
        case stillRunning(current: String, offered: String)
        /// The clip's sound track was opened for another sample rate or channel count; the movie's audio format
        /// cannot change mid-clip.
        case formatChanged(offered: String, rate: Int32, channels: Int, clipRate: Int32, clipChannels: Int)

        public var description: String {
            switch self {
            case .stillRunning(let current, let offered):
                return "microphone \(offered) was plugged in but not used: \(current) still records"
            case .formatChanged(let offered, let rate, let channels, let clipRate, let clipChannels):
                return "microphone \(offered) was plugged in but not used: it records \(rate) Hz \(channels) ch, "
                    + "and this clip's sound is \(clipRate) Hz \(clipChannels) ch (a clip cannot change its audio "
                    + "format); plug it in again between clips to record with it"
            }
        }
    }

    /// A microphone plugged (back) in: replaces the rig's microphone if that one has ended or never was, and
    /// starts it with a fresh mailbox; the first chunk it delivers says "microphone back: sound resumes at …"
    /// (in the sidecar too). Refused — said, noted in the clip, and the offered microphone left unstarted for the
    /// caller to drop — while the current microphone still runs, or when a clip is recording sound in another
    /// format (the encoder could resample, but the declicker, level meter and drift corrector hold one format per
    /// clip). Between clips any format is taken: `record` opens the movie with the microphone's own format.
    @discardableResult
    public func attachMicrophone(_ replacement: any Microphone) -> Result<Void, MicrophoneRefusal> {
        serialContext.assertOnSerialContext()
        if let current = microphone {
            if current === replacement { return .success(()) }
            if !microphoneGone {
                let refusal = MicrophoneRefusal.stillRunning(current: current.displayName,
                                                             offered: replacement.displayName)
                notify("warning: \(refusal)")
                return .failure(refusal)
            }
        }
        if let recorder, recorder.session.state == .recording || recorder.session.state == .paused,
           let audio = recorder.description.settings.audio,
           audio.sampleRate != replacement.sampleRate || audio.channels != replacement.channels {
            let refusal = MicrophoneRefusal.formatChanged(offered: replacement.displayName,
                                                          rate: replacement.sampleRate,
                                                          channels: replacement.channels,
                                                          clipRate: audio.sampleRate, clipChannels: audio.channels)
            notify("warning: \(refusal)")
            recorder.warn("\(refusal)")
            return .failure(refusal)
        }
        if let old = microphone { deviceWorker.submit { old.stop() } }
        microphone = replacement
        endedMicrophone = nil
        let clipRunning = recorder.map { $0.session.state == .recording || $0.session.state == .paused } ?? false
        if clipRunning, recorder?.description.settings.audio == nil {
            // A rig that started without its microphone opened this clip without a sound track: nothing resumes.
            microphoneGone = false
            notify("microphone \(replacement.displayName) attached; this clip was started without sound, the next one records it")
        } else {
            // Its first chunk is the "back" event; with no clip, the next clip simply has sound.
            microphoneGone = true
            notify("microphone \(replacement.displayName) attached")
        }
        startMicrophone(replacement)
        return .success(())
    }

    /// The microphone's card went away (a udev `remove`) before ALSA said so: it is stopped (on the device
    /// worker, which waits for its capture thread) and the clip goes on with silence. Does nothing when the
    /// microphone already ended.
    public func detachMicrophone(reason: String) {
        serialContext.assertOnSerialContext()
        guard let microphone, !microphoneGone else { return }
        endedMicrophone = ObjectIdentifier(microphone)
        deviceWorker.submit { microphone.stop() }
        microphoneEnded(reason: reason)
    }

    func microphoneEnded(reason: String) {
        microphoneGone = true
        notify("microphone stopped: \(reason); the clip goes on with silence")
        recorder?.warn("microphone stopped: \(reason); the clip goes on with silence")
        recorder?.audioSourceEnded()
    }

    /// Sound again after the microphone ended (plugged back): said, and noted in the clip's sidecar.
    func microphoneCameBack() {
        microphoneGone = false
        let event = "microphone back: sound resumes at \(DurationParser.clockString(recorder?.session.timer ?? .zero))"
        notify(event)
        recorder?.warn(event)
    }
}
