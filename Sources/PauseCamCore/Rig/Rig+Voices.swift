extension Rig {
    /// One voice of a rig that records several (`audio:` as a list): a person's microphone, recorded on a mono
    /// track of its own (titled with `name`) and mixed, with its gain and pan, into the movie's stereo first track.
    public struct Voice: Sendable, Equatable {
        /// Where a voice's sound comes from.
        public enum Source: Sendable, Equatable, Hashable {
            /// The sound card a rule picks through udev (`match: {usb: "1235:8210"}`).
            case matched(MatchRule)
            /// The microphone of the camera serving that lens (`lens: tele`).
            case ofLens(String)
            /// An ALSA PCM name (`device: hw:2,0`).
            case alsa(String)
            /// A virtual microphone of its own (`device: virtual`), with `VirtualVoice`'s test signal.
            case virtual
        }

        /// `name:` — the track's title, the sidecar's and the page's name for it (`host`, `guest`, `room`).
        public var name: String
        public var source: Source
        /// `channel: N` (1-based): the voice is that channel of its card; voices on the same card share one
        /// capture. `nil`: the card's first channel (a mono microphone).
        public var channel: Int?
        /// `gain: +6dB`: applied to the voice's own track and to its part of the mix.
        public var gainDecibels: Double
        /// `pan: -1…1` (left … right, 0 centre): where the voice sits in the stereo mix (constant power).
        public var pan: Double
        /// `mute: true`: left out of the mix; its own track is still recorded.
        public var mute: Bool
        /// The virtual microphone's test signal (only with `source == .virtual`).
        public var virtual: VirtualVoice
        /// Where the voice's entry starts in the rig file, for messages about it.
        public var mark: SourceMark?

        public init(name: String, source: Source, channel: Int? = nil, gainDecibels: Double = 0, pan: Double = 0,
                    mute: Bool = false, virtual: VirtualVoice = VirtualVoice(), mark: SourceMark? = nil) {
            self.name = name
            self.source = source
            self.channel = channel
            self.gainDecibels = gainDecibels
            self.pan = pan
            self.mute = mute
            self.virtual = virtual
            self.mark = mark
        }

        /// The 0-based channel of its card the voice takes.
        public var channelIndex: Int { (channel ?? 1) - 1 }

        /// Names a voice cannot have: the `follow:` keys that stand for several voices or none.
        public static let reservedNames: Set<String> = ["both", "nobody"]
        /// The range `pan:` may take.
        public static let panRange = -1.0...1.0
    }

    /// What a virtual voice plays, so tests tell the voices apart and script who speaks when.
    public struct VirtualVoice: Sendable, Equatable {
        /// `tone: HZ`: the frequency of its sync beeps (and of its speech), default 1 kHz.
        public var frequency: Int
        /// `drift_ppm: N`: its sample clock runs N parts per million fast (slow when negative).
        public var driftPPM: Int
        /// `level: 0…1`: a gain on everything it plays.
        public var level: Double
        /// `speech: ["0s-4s", "9s-11s"]`: spans of the session clock (from the rig's start) in which the voice
        /// "talks": a continuous tone at −12 dBFS at `frequency`, and is silent between them (no beeps, so `follow`
        /// hears only the talk). Empty: beeps only.
        public var speech: [Range<MediaTime>]

        public init(frequency: Int = 1_000, driftPPM: Int = 0, level: Double = 1, speech: [Range<MediaTime>] = []) {
            self.frequency = frequency
            self.driftPPM = driftPPM
            self.level = level
            self.speech = speech
        }
    }

    /// `follow:` — the program's lens follows who speaks: each voice's lens, and the lens for several voices at
    /// once (`both`) or none (`nobody`, default: `both`'s).
    public struct Follow: Sendable, Equatable {
        /// Voice name → lens role, in file order.
        public var lenses: [(voice: String, lens: String)]
        /// The lens when more than one voice speaks (`both:`).
        public var both: String
        /// The lens when nobody speaks (`nobody:`, default `both`).
        public var nobody: String
        /// `min_shot:` — the shortest time a cut stays before the next automatic cut (default 2 s).
        public var minimumShot: MediaTime
        /// `hold:` — how long a new speaker (or silence) must last before the lens cuts to it (default 1 s).
        public var hold: MediaTime
        /// `manual_hold:` — after a manual `lens` (or `zoom` to a lens), how long following pauses (default 10 s).
        public var manualHold: MediaTime
        /// `threshold:` — the level, in dBFS after the voice's gain, above which a voice counts as speaking
        /// (default −40).
        public var thresholdDBFS: Double
        /// `start: on|off` — whether following is on when the rig starts (default on).
        public var startsOn: Bool

        public init(lenses: [(voice: String, lens: String)], both: String, nobody: String? = nil,
                    minimumShot: MediaTime = .seconds(2), hold: MediaTime = .seconds(1),
                    manualHold: MediaTime = .seconds(10), thresholdDBFS: Double = -40, startsOn: Bool = true) {
            self.lenses = lenses
            self.both = both
            self.nobody = nobody ?? both
            self.minimumShot = minimumShot
            self.hold = hold
            self.manualHold = manualHold
            self.thresholdDBFS = thresholdDBFS
            self.startsOn = startsOn
        }

        /// The lens of `voice`, if the rig names one.
        public func lens(ofVoice voice: String) -> String? { lenses.first { $0.voice == voice }?.lens }

        public static func == (a: Follow, b: Follow) -> Bool {
            a.lenses.map(\.voice) == b.lenses.map(\.voice) && a.lenses.map(\.lens) == b.lenses.map(\.lens)
                && a.both == b.both && a.nobody == b.nobody && a.minimumShot == b.minimumShot && a.hold == b.hold
                && a.manualHold == b.manualHold && a.thresholdDBFS == b.thresholdDBFS && a.startsOn == b.startsOn
        }
    }
}
