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
        public init(rigName: String, settings: MovieSettings, devices: [Sidecar.Device], sidecarPath: String,
                    started: String) {
            self.rigName = rigName
            self.settings = settings
            self.devices = devices
            self.sidecarPath = sidecarPath
            self.started = started
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
