/// What PauseCam tells its OSC subscribers: the rig's state reduced to the values a button or a label shows, taken
/// on the serial context from the controller's status. Comparing two of them gives the messages for what changed
/// (`OSCFeedback.changes`); one alone gives the whole set (`OSCFeedback.all`), sent once a second.
public struct OSCFeedbackState: Sendable, Equatable {
    /// `idle`, `recording`, `paused`, `stopping` or `finished` (`Session.State`).
    public var state: String
    /// The movie's time, in seconds, and as the shell shows it (`00:01:23.4`).
    public var timerSeconds: Double
    public var timerText: String
    /// The scene's number (0 before the first) and its name (`record NAME`, `chapter NAME`; empty when unnamed).
    public var scene: Int
    public var sceneName: String
    /// The active lens and the effective zoom (the lens's × the digital zoom).
    public var lens: String
    public var zoom: Double
    /// Each lens in the rig's order with its tally: `program`, `preview` or `off`.
    public var tally: [Tally]
    /// Minutes of recording the free disk holds at the current rate (the status's `RecordingTimeLeft`, whole
    /// minutes, rounded down); `nil` while unknown.
    public var diskMinutes: Int?
    /// Video frames dropped in this clip.
    public var droppedFrames: Int
    /// A group's state; `nil` for a rig on its own.
    public var group: Group?

    /// One lens's tally light.
    public struct Tally: Sendable, Equatable {
        public var lens: String
        public var state: String
        public init(lens: String, state: String) {
            self.lens = lens
            self.state = state
        }
    }

    /// The state of a rig's group as the retained statuses show it.
    public struct Group: Sendable, Equatable {
        /// The members' common state (`recording`, `idle`, …), or `mixed` when they differ.
        public var state: String
        /// Members heard from and online, this one included.
        public var online: Int
        /// Whether this member reaches the broker.
        public var connected: Bool
        public init(state: String, online: Int, connected: Bool) {
            self.state = state
            self.online = online
            self.connected = connected
        }

        /// The group's state from this member's state and the others' (`online` ones only).
        public init(own: String, others: [(state: String, online: Bool)], connected: Bool) {
            let states = [own] + others.filter(\.online).map(\.state)
            self.init(state: Set(states).count == 1 ? own : "mixed", online: states.count, connected: connected)
        }
    }

    public init(state: String, timerSeconds: Double, timerText: String, scene: Int, sceneName: String, lens: String,
                zoom: Double, tally: [Tally], diskMinutes: Int? = nil, droppedFrames: Int, group: Group? = nil) {
        self.state = state
        self.timerSeconds = timerSeconds
        self.timerText = timerText
        self.scene = scene
        self.sceneName = sceneName
        self.lens = lens
        self.zoom = zoom
        self.tally = tally
        self.diskMinutes = diskMinutes
        self.droppedFrames = droppedFrames
        self.group = group
    }

    /// The state of `status` for a rig whose lenses are `lenses` (in rig order). Each lens's tally is the one the
    /// status carries (`TallyBoard`: program while recording on it, preview when armed, off), so OSC, TSL and the
    /// monitor page never disagree; a lens the status does not list is off.
    public init(status: RigStatus, lenses: [String], sceneName: String?, group: Group? = nil) {
        self.init(state: status.state.rawValue, timerSeconds: status.timer.seconds,
                  timerText: DurationParser.clockString(status.timer),
                  scene: status.scene, sceneName: sceneName ?? "", lens: status.lens,
                  zoom: status.effectiveZoom,
                  tally: lenses.map { lens in
                      Tally(lens: lens, state: (status.tally.first { $0.lens == lens }?.state ?? .off).rawValue)
                  },
                  diskMinutes: status.timeLeft.seconds.map { $0 / 60 },
                  droppedFrames: status.droppedFrames, group: group)
    }
}
