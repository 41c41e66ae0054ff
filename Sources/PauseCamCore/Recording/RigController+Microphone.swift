import Foundation

/// The microphone's life after start, as `RigController` sees it: it ends by itself (unplugged: ALSA says so), or
/// the udev watcher sees its card go (`detachMicrophone`); either way the clip goes on with silence. A card the
/// rig's `audio` rule names, plugged back in, is opened and attached by the `DeviceHub`; sound resumes at its own
/// capture time.
extension RigController {
    /// A microphone plugged (back) in (the hub's `attachMicrophone`): refused while the current one still runs or
    /// when the clip records sound in another format.
    @discardableResult
    public func attachMicrophone(_ replacement: any Microphone) -> Result<Void, MicrophoneRefusal> {
        devices.attachMicrophone(replacement)
    }

    /// The microphone's card went away before ALSA said so: stopped, and the clip goes on with silence.
    public func detachMicrophone(reason: String) {
        devices.detachMicrophone(reason: reason)
    }

    /// What the clip recording now needs of a microphone plugged in now.
    var clipSound: DeviceHub.ClipSound {
        guard clips.isRecording, let recorder = clips.recorder else { return .noClip }
        return .clip(recorder.description.settings.audio)
    }

    func microphoneEnded(reason: String) {
        let event = EngineEvent.microphoneStopped(reason: reason)
        notify(event)
        clips.warnClip(event.text)
        clips.recorder?.audioSourceEnded()
    }

    /// Sound again after the microphone ended (plugged back): said, and noted in the clip's sidecar.
    func microphoneCameBack() {
        let event = EngineEvent.microphoneBack(movieTime: clips.recorder?.session.timer ?? .zero)
        notify(event)
        clips.warnClip(event.text)
    }
}
