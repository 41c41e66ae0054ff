/// The voices of a rig that records several microphones: their mix settings and `follow`.
extension RigController {
    /// `follow on|off`.
    func follow(_ on: Bool, at time: MediaTime) -> Reply {
        .failed("this rig has no `follow:`; add one to let the lens follow who speaks")
    }

    /// `voice NAME mute|unmute|gain DB`.
    func voice(_ name: String, _ change: Command.VoiceChange) -> Reply {
        .failed("this rig records one microphone; `voice` changes a voice of a rig whose `audio:` is a list")
    }
}
