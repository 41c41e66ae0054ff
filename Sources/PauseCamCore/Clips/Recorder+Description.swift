import Foundation

/// The values a `Recorder` is made from and leaves: the clip's fixed facts, and what a finished clip left on disk.
extension Recorder {
    /// Facts about the clip that do not change while it records.
    public struct Description: Sendable {
        public var rigName: String
        public var settings: MovieSettings
        public var devices: [Sidecar.Device]
        /// Where the sidecar goes (`NAME.json`).
        public var sidecarPath: String
        /// ISO 8601 wall-clock start.
        public var started: String
        /// Exports written beside the movie once it is finished (`output.exports`).
        public var exports: [ExportFormat] = []
        /// A group's shared frame grid on the capture clock (`GroupMember.phaseAnchor`): the output clock's slots
        /// fall on it, so every member's boundaries land on the same slot. `nil`: the grid starts at the first frame.
        public var phaseAnchor: MediaTime?
        /// The microphone of each voice of a rig that records several (`settings.audio.tracks` after the mix), by
        /// the voice's name, as the sidecar's `audio.tracks` lists them; empty for a rig of one microphone.
        public var voices: [Voice] = []
        /// The wall-clock instant of `record`, which `started` gives to the second: the voices' Broadcast WAVs
        /// take their `bext` time reference from it. `nil` when the caller gave none (a voice file then counts from
        /// midnight of 1970-01-01, time reference 0).
        public var startedAt: Date?
        /// The clip's timecode policy (`TimecodeClock`), made at its start; `nil` gives the movies no timecode.
        public var timecode: TimecodeClock?
        public init(rigName: String, settings: MovieSettings, devices: [Sidecar.Device], sidecarPath: String,
                    started: String) {
            self.rigName = rigName
            self.settings = settings
            self.devices = devices
            self.sidecarPath = sidecarPath
            self.started = started
        }
    }

    /// One voice's microphone as the system names it (`Sidecar.Device.name`'s wording), for the sidecar.
    public struct Voice: Sendable, Equatable {
        /// The voice's name: its track's title (`Rig.Voice.name`).
        public var name: String
        /// The microphone's display name.
        public var device: String
        public init(name: String, device: String) {
            self.name = name
            self.device = device
        }
    }

    /// What a finished clip left on disk.
    public struct Clip: Sendable, Equatable {
        public var moviePath: String
        public var sidecarPath: String
        public var thumbnailPath: String?
        public var sidecar: Sidecar
    }
}
