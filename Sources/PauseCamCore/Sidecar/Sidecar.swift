import Foundation

/// The JSON metadata file written beside every movie (`NAME.json`). Its schema is documented in the README;
/// `schema` changes when a field changes meaning. Times in the file are seconds as decimal numbers: file times
/// (position in the movie) unless the name says `wall`.
public struct Sidecar: Codable, Sendable, Equatable {
    /// Schema version of this layout.
    public var schema: Int = 1
    public var rig: String
    /// The movie's file name (in the same folder).
    public var movie: String
    /// False while recording (the movie is still `NAME.mov.partial`); true once the movie was finished cleanly.
    public var complete: Bool
    /// Wall-clock start and stop, ISO 8601.
    public var started: String
    public var stopped: String?
    /// The movie's duration in seconds (end of its last video frame).
    public var duration: Double
    /// The movie's timecode (its `tmcd` track's start); absent before the first frame and in older sidecars.
    public var timecode: Timecode? = nil
    public var video: VideoStream
    public var audio: AudioStream?
    public var scenes: [Scene]
    public var pauses: [Pause]
    /// Every `retake`, in order: the scene taken again and how long the discarded take was. Absent when there was
    /// none. The movie leaves the discarded takes out; the `.partial` of a clip that never finished still holds them.
    public var retakes: [Retake]? = nil
    /// The rig's group (`group:`): who this member is and every group command it saw. Absent without a group.
    public var group: Group? = nil
    /// Every lens switch that reached the movie, in order: when it was asked for and when the new lens's first
    /// picture showed (they differ when the lens had to start, or was waited for after an unplug).
    public var switches: [Switch] = []
    public var devices: [Device]
    /// The lenses recorded each into a movie of its own on the program's timeline (`output.iso`), in the rig's
    /// order; absent without ISOs.
    public var iso: [IsoMovie]? = nil
    /// Things the user should know about this clip (microphone missing, control not supported, frames dropped).
    public var warnings: [String]

    public struct VideoStream: Codable, Sendable, Equatable {
        public var codec: String
        public var width: Int
        public var height: Int
        public var fps: Double
        public var framesWritten: Int
        /// Dropped because the encoder fell behind (real clock only).
        public var framesDropped: Int
        /// Dropped because their timestamp was not after the previous frame's.
        public var lateFramesDropped: Int
    }

    public struct AudioStream: Codable, Sendable, Equatable {
        public var codec: String
        public var sampleRate: Int
        public var channels: Int
        public var samplesWritten: Int
        /// Sample frames dropped because the encoder fell behind (real clock only; the movie has silence there).
        public var samplesDropped: Int = 0
        /// Sample frames dropped because they overlapped audio already written.
        public var lateSamplesDropped: Int
        /// Stalls filled with silence or cut (absent when none): everything smaller was drift, smoothed.
        public var stalls: AudioStallReport?
        /// The rig's digital gain in dB (`audio.gain`); absent when none was set.
        public var gain: Double? = nil
        /// Samples (every channel) written at 16-bit full scale, i.e. clipped — by the gain or before it. Absent in
        /// sidecars older than this field.
        public var clippedSamples: Int? = nil
        /// The movie's audio tracks in order (a rig of voices: the stereo mix, then one per voice); absent for a
        /// rig of one microphone (one track of every channel).
        public var tracks: [AudioTrack]? = nil
    }

    /// One audio track of the movie, and for a voice its microphone, its own file and where its microphone was gone.
    public struct AudioTrack: Codable, Sendable, Equatable {
        /// The track's title (`mix`, or the voice's name).
        public var title: String
        /// The channels of the recorded sound it carries (0 and 1: the mix; 2…: the voices).
        public var channels: [Int]
        /// The voice's microphone as the system names it; absent for the mix (or when the engine did not say).
        public var microphone: String? = nil
        /// The voice's Broadcast WAV from the sidecar's folder (`NAME.iso/VOICE.wav`, with `output.iso`); absent
        /// otherwise.
        public var file: String? = nil
        /// Movie-time spans in which the voice's microphone was gone (unplugged): its track is silent there. Absent
        /// when it never was.
        public var gone: [VoiceGone]? = nil

        public init(title: String, channels: [Int], microphone: String? = nil, file: String? = nil,
                    gone: [VoiceGone]? = nil) {
            self.title = title
            self.channels = channels
            self.microphone = microphone
            self.file = file
            self.gone = gone
        }
    }

    /// A stretch of movie time in which a voice's microphone was gone.
    public struct VoiceGone: Codable, Sendable, Equatable {
        public var start: Double
        /// Seconds until it came back; absent while it is still gone (the final sidecar ends it at the clip's end).
        public var duration: Double?

        public init(start: Double, duration: Double?) {
            self.start = start
            self.duration = duration
        }
    }

    public struct Scene: Codable, Sendable, Equatable {
        public var index: Int
        public var name: String?
        /// The chapter title: the name, or "Scene N".
        public var title: String
        public var start: Double
        public var duration: Double
        public var lenses: [LensSegment]
        /// Stretches of the scene where no lens delivered: the lost lens's last picture held (`hold`), then the
        /// "no signal" slate (`slate`).
        public var noSignal: [NoSignal] = []
        public var markers: [Marker]
        /// The scene's audio peak and RMS in dBFS (`SoundLevel`; −120 for digital silence); absent without audio.
        public var audioPeak: Double? = nil
        /// (`audioRms`, not `audioRMS`: the sidecar's snake_case keys must read back as the same name.)
        public var audioRms: Double? = nil
        /// Seconds of the scene before its `record` or `resume` was pressed: what the rig's `preroll:` took back
        /// (the press is at `start` + `preroll` in the movie); absent without a preroll.
        public var preroll: Double? = nil
        /// The wall clock's time of day at the scene's first frame, as a label at the movie's rate: the movie's
        /// own timecode runs on through pauses, this says when each scene was shot. Absent in older sidecars.
        public var timeOfDay: String? = nil
    }

    public struct LensSegment: Codable, Sendable, Equatable {
        public var lens: String
        public var start: Double
        public var duration: Double
        /// Output frames that repeated the picture before (a lens slower than the output; a held picture).
        public var repeatedFrames: Int = 0
        /// Frames the lens delivered in the segment that the movie never showed (a lens faster than the output).
        public var skippedFrames: Int = 0
    }

    /// A stretch with no lens delivering (file times).
    public struct NoSignal: Codable, Sendable, Equatable {
        /// `hold` (the last picture repeated, for up to the rig's `hold`) or `slate` (the "no signal" slate).
        public var kind: String
        /// The lens whose picture was lost.
        public var lens: String
        public var start: Double
        public var duration: Double
    }

    /// A lens switch in file times: `requested` when it was asked for (the pause point if asked while paused),
    /// `effective` the first frame of the new lens. Equal for a hot switch (to the slot); later for a cold one.
    public struct Switch: Codable, Sendable, Equatable {
        public var lens: String
        public var requested: Double
        public var effective: Double
        /// True for a cut `follow` made (to who speaks); absent for a switch someone asked for.
        public var auto: Bool? = nil
        /// With `auto`: the voices speaking then (empty: nobody did).
        public var voices: [String]? = nil

        public init(lens: String, requested: Double, effective: Double, auto: Bool? = nil, voices: [String]? = nil) {
            self.lens = lens
            self.requested = requested
            self.effective = effective
            self.auto = auto
            self.voices = voices
        }
    }

    public struct Marker: Codable, Sendable, Equatable {
        public var time: Double
        public var text: String
    }

    public struct Pause: Codable, Sendable, Equatable {
        public var afterScene: Int
        /// File time of the cut.
        public var at: Double
        /// How long the recording was paused in real (session-clock) time; `null` while still paused.
        public var wallDuration: Double?
    }

    public struct Device: Codable, Sendable, Equatable {
        /// The lens role, or "microphone".
        public var role: String
        public var name: String
        /// The lens's `latency:` in seconds, taken off its camera's timestamps; absent when the rig sets none.
        public var latency: Double?
        /// Samples this device captured during the clip that were dropped before the engine could take them (its
        /// mailbox was full because the engine was busy): frames for a lens, sample frames for the microphone. The
        /// oldest waiting ones go first, so the movie stays current. Absent in sidecars older than this field.
        public var dropped: Int?
        /// For a lens with `format: auto`, the encoding its camera streamed in and why ("MJPEG: shares controller
        /// 0000:00:14.0 with lens tele"); absent for any other device.
        public var formatChoice: String?

        public init(role: String, name: String, latency: Double? = nil, dropped: Int? = nil,
                    formatChoice: String? = nil) {
            self.role = role
            self.name = name
            self.latency = latency
            self.dropped = dropped
            self.formatChoice = formatChoice
        }
    }

    /// One lens's ISO movie: the lens's every frame on the program's timeline (same start, pauses and end).
    public struct IsoMovie: Codable, Sendable, Equatable {
        /// The lens's role.
        public var lens: String
        /// The movie's path from the sidecar's folder (`NAME.iso/ROLE.mov`).
        public var file: String
        /// The lens's own size and rate, which the movie keeps.
        public var width: Int
        public var height: Int
        public var fps: Double
        /// Video frames in the movie.
        public var frames: Int
        /// The ISO's timecode at its own rate: the program's instant for instant. Absent in older sidecars.
        public var timecode: Timecode? = nil

        public init(lens: String, file: String, width: Int, height: Int, fps: Double, frames: Int) {
            self.lens = lens
            self.file = file
            self.width = width
            self.height = height
            self.fps = fps
            self.frames = frames
        }
    }

    /// One discarded take (see `Session.Retake`).
    public struct Retake: Codable, Sendable, Equatable {
        /// The scene taken again (its index; the new take keeps it).
        public var scene: Int
        /// Seconds of recording thrown away.
        public var discardedDuration: Double

        public init(scene: Int, discardedDuration: Double) {
            self.scene = scene
            self.discardedDuration = discardedDuration
        }
    }

    /// A member's view of its group for this clip.
    public struct Group: Codable, Sendable, Equatable {
        /// The group's name (`group.name`) and this member's (`group.host`).
        public var name: String
        public var host: String
        /// The group's frame grid: slot k at `epoch_ns + k / fps` on CLOCK_REALTIME (the Unix epoch, 0).
        public var epochNs: Int64
        /// Seconds between giving a command and its effective time (`group.lead`).
        public var lead: Double
        /// Every other member seen on the broker while this clip recorded.
        public var membersSeen: [String]
        /// Every group command this member saw, in arrival order.
        public var commands: [Command]
        /// Messages ignored, by reason (`duplicate`, `wrong_schema`, …); absent when none.
        public var dropped: [String: Int]?

        public struct Command: Codable, Sendable, Equatable {
            public var from: String
            public var seq: UInt64
            public var command: String
            /// The effective time, CLOCK_REALTIME nanoseconds, and its slot on the group's grid.
            public var atNs: Int64
            public var slot: Int64
            /// When it arrived, CLOCK_REALTIME nanoseconds.
            public var arrivedNs: Int64
            /// `on_time`, `late`, `local_only` or `refused_unsynchronised`.
            public var outcome: String
            /// Seconds it came after its effective time (applied on arrival); 0 unless late.
            public var lateBy: Double

            public init(from: String, seq: UInt64, command: String, atNs: Int64, slot: Int64, arrivedNs: Int64,
                        outcome: String, lateBy: Double) {
                self.from = from
                self.seq = seq
                self.command = command
                self.atNs = atNs
                self.slot = slot
                self.arrivedNs = arrivedNs
                self.outcome = outcome
                self.lateBy = lateBy
            }
        }

        public init(name: String, host: String, epochNs: Int64, lead: Double, membersSeen: [String],
                    commands: [Command], dropped: [String: Int]?) {
            self.name = name
            self.host = host
            self.epochNs = epochNs
            self.lead = lead
            self.membersSeen = membersSeen
            self.commands = commands
            self.dropped = dropped
        }
    }

    /// Pretty, key-sorted JSON with snake_case keys.
    public func encoded() throws -> Data { try Self.encoder().encode(self) }

    /// The encoder of the sidecar's layout (also for its entries alone, see `SidecarDocument`).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Reads a sidecar written by `encoded()`.
    public static func decode(_ data: Data) throws -> Sidecar {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Sidecar.self, from: data)
    }
}
