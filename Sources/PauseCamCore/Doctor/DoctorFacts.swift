/// What `pausecam doctor` gathered about this machine and a rig, as plain values: the system module reads them
/// (groups, device nodes, udev, sysfs, the kernel log, the file system), `DoctorExamination` judges them. Keeping
/// the judging apart lets every verdict be table-tested without a camera, a sound card or a full disk.
public struct DoctorFacts: Sendable {
    /// Who runs PauseCam and which groups it has.
    public struct User: Sendable, Equatable {
        /// The login name (`uid N` when the user database has none).
        public var name: String
        /// The real user ID: 0 opens every node.
        public var uid: UInt32
        /// The groups this process has now (what opening a node is judged by).
        public var groups: [String]
        /// The groups the user database gives the user: a group here but not in `groups` was added after this
        /// login began, and counts only after logging in again.
        public var configuredGroups: [String]

        public init(name: String, uid: UInt32, groups: [String], configuredGroups: [String]) {
            self.name = name
            self.uid = uid
            self.groups = groups
            self.configuredGroups = configuredGroups
        }
    }

    /// A device node (`/dev/video0`, `/dev/snd/pcmC1D0c`) and whether this process may open it for reading and
    /// writing.
    public struct DeviceNode: Sendable, Equatable {
        public var path: String
        /// The group owning the node (`video`, `audio`); `nil` when the group has no name.
        public var group: String?
        /// The permission bits (`0o660`).
        public var mode: UInt32
        /// True when this process may read and write it (mode, group, ACLs and root all counted).
        public var accessible: Bool

        public init(path: String, group: String?, mode: UInt32, accessible: Bool) {
            self.path = path
            self.group = group
            self.mode = mode
            self.accessible = accessible
        }
    }

    /// A camera udev lists, as `devices` shows it, with the lens it serves in the rig.
    public struct Camera: Sendable, Equatable {
        /// "/dev/video2 (HD Pro Webcam C920, serial 1234ABCD)".
        public var description: String
        /// Where it sits on USB; `nil` when it is not a USB camera.
        public var placement: USBPlacement?
        /// The bus's host controller (a PCI address), when sysfs names it.
        public var controller: String?
        /// Why its formats could not be read (permission denied, busy…).
        public var problem: String?
        /// The rig's lens this camera serves, if any.
        public var lens: String?

        public init(description: String, placement: USBPlacement? = nil, controller: String? = nil,
                    problem: String? = nil, lens: String? = nil) {
            self.description = description
            self.placement = placement
            self.controller = controller
            self.problem = problem
            self.lens = lens
        }
    }

    /// How one lens of the rig gets its picture.
    public struct LensMatch: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable {
            /// A virtual or file lens: nothing to find.
            case notACamera(String)
            /// The camera its rule picks ("/dev/video0 (C920, serial A1)").
            case camera(String)
            /// No camera present matches its rule (the rule in words).
            case noCamera(rule: String)
        }
        /// The lens's name in the rig.
        public var lens: String
        /// Where its picture comes from, or what is missing.
        public var outcome: Outcome

        public init(lens: String, outcome: Outcome) {
            self.lens = lens
            self.outcome = outcome
        }
    }

    /// The rig's microphone as found on this machine.
    public enum RigMicrophone: Sendable, Equatable {
        /// `audio: {device: none}`.
        case none
        /// The virtual microphone.
        case virtual
        /// The PCM opened for capture (`card` when udev knows which sound card it is).
        case opens(pcm: String, card: String?)
        /// It cannot be used, and why ("no microphone matches …", "snd_pcm_open: No such file or directory").
        case unusable(described: String, reason: String)
    }

    /// The output folder as found, without creating it.
    public enum OutputFolderState: Sendable, Equatable {
        /// Exists and can be written.
        case writable
        /// Missing, and its nearest existing parent can be written: a session creates it.
        case willBeCreated(parent: String)
        /// A file stands where the folder should be.
        case isAFile
        /// A file stands where one of its parents should be.
        case underAFile(parent: String)
        /// It (or the nearest existing parent) cannot be written, and the system's reason.
        case notWritable(path: String, reason: String)
    }

    /// The output folder and the free space where it is (or would be).
    public struct OutputFolder: Sendable, Equatable {
        /// The folder, `~` and variables expanded.
        public var path: String
        /// Whether a session can write there.
        public var state: OutputFolderState
        /// Free bytes for this user on the folder's file system (or its nearest existing parent's); `nil` unknown.
        public var availableBytes: Int64?
        /// A session warns below this many free bytes…
        public var warnBelow: Int64
        /// …and stops below this many.
        public var stopBelow: Int64
        /// The newest clip in the folder and the rate it filled the disk at, for the recording time left; `nil`
        /// when the folder holds no finished clip.
        public var lastClip: ClipRate?

        public init(path: String, state: OutputFolderState, availableBytes: Int64?, warnBelow: Int64,
                    stopBelow: Int64, lastClip: ClipRate? = nil) {
            self.path = path
            self.state = state
            self.availableBytes = availableBytes
            self.warnBelow = warnBelow
            self.stopBelow = stopBelow
            self.lastClip = lastClip
        }
    }

    /// The x264 speed known for the rig's canvas.
    public enum Encoder: Sendable, Equatable {
        /// Measured (now, or earlier and cached), with the preset the rig asks for (`auto` or a name).
        case measured(EncoderSpeedMeasurement, preset: String, cached: Bool)
        /// No measurement for this size and rate on this machine.
        case notMeasured(width: Int, height: Int, rate: FrameRate)
        /// The measurement failed.
        case failed(String)
    }

    /// Something read from the system, or why it could not be.
    public enum Reading<Value: Sendable & Equatable>: Sendable, Equatable {
        case read(Value)
        case notReadable(String)
    }

    /// Who runs PauseCam.
    public var user: User
    /// `/dev/video*`, by path.
    public var videoNodes: [DeviceNode]
    /// `/dev/snd/*`; empty when the kernel has no sound device.
    public var soundNodes: [DeviceNode]
    /// The cameras udev lists, or why it could not list them.
    public var cameras: Reading<[Camera]>
    /// The rig's name; `nil` when doctor examines the machine alone.
    public var rigName: String?
    /// True when the rig has camera lenses (or no rig was given: every camera might be wanted).
    public var needsCameras: Bool
    /// True when the rig's microphone is an ALSA one (or no rig was given).
    public var needsSound: Bool
    /// Each lens of the rig; empty without a rig.
    public var lenses: [LensMatch]
    /// The matcher's refusal (two cameras fit one rule…), when it refused.
    public var matchError: String?
    /// The USB bandwidth plan of the rig's camera lenses (`nil` without a rig or camera lenses) and the lenses left
    /// out of it with the reason.
    public var usbPlan: USBBandwidthPlan?
    public var unplannedLenses: [USBBandwidthReport.Unplanned]
    /// The sound cards udev lists ("card 1 \"C920\" (ALSA plughw:CARD=C920)"), or why it could not.
    public var microphones: Reading<[String]>
    /// The rig's microphone; `nil` without a rig.
    public var rigMicrophone: RigMicrophone?
    /// True when the rig refuses to record without its microphone (`audio: {required: true}`).
    public var microphoneRequired: Bool
    /// A rig of voices: each card it opens, named by its voices ("host, guest"), and whether it opens.
    public var voiceCards: [VoiceCard] = []

    /// One card of a rig of voices.
    public struct VoiceCard: Sendable, Equatable {
        public var voices: String
        public var microphone: RigMicrophone
        public init(voices: String, microphone: RigMicrophone) {
            self.voices = voices
            self.microphone = microphone
        }
    }
    /// `nil` without a rig.
    public var outputFolder: OutputFolder?
    /// `nil` without a rig.
    public var encoder: Encoder?
    /// `/sys/devices/system/clocksource/clocksource0/current_clocksource`.
    public var clockSource: Reading<String>
    /// The kernel log's lines (`dmesg`), or why it could not be read.
    public var kernelLog: Reading<[String]>
    /// The rig's webcam (`live: {webcam: …}`); `nil` without a rig or without a webcam.
    public var webcam: Webcam? = nil

    /// The v4l2loopback device a rig writes its program to, as found on this machine.
    public struct Webcam: Sendable, Equatable {
        /// How the rig names it: "/dev/video10" or "label \"PauseCam\"".
        public var target: String
        public var outcome: Outcome

        /// What opening the device said.
        public enum Outcome: Sendable, Equatable {
            /// `device` is a loopback (`card` its label) that takes a writer now.
            case ready(device: String, card: String)
            /// It cannot be written: `problem` in one line, and what to do, most effective first.
            case unusable(problem: String, fixes: [String])
        }

        public init(target: String, outcome: Outcome) {
            self.target = target
            self.outcome = outcome
        }
    }

    public init(user: User, videoNodes: [DeviceNode] = [], soundNodes: [DeviceNode] = [],
                cameras: Reading<[Camera]> = .read([]), rigName: String? = nil, needsCameras: Bool = true,
                needsSound: Bool = true, lenses: [LensMatch] = [], matchError: String? = nil,
                usbPlan: USBBandwidthPlan? = nil, unplannedLenses: [USBBandwidthReport.Unplanned] = [],
                microphones: Reading<[String]> = .read([]), rigMicrophone: RigMicrophone? = nil,
                microphoneRequired: Bool = false, outputFolder: OutputFolder? = nil, encoder: Encoder? = nil,
                clockSource: Reading<String> = .read("tsc"), kernelLog: Reading<[String]> = .read([])) {
        self.user = user
        self.videoNodes = videoNodes
        self.soundNodes = soundNodes
        self.cameras = cameras
        self.rigName = rigName
        self.needsCameras = needsCameras
        self.needsSound = needsSound
        self.lenses = lenses
        self.matchError = matchError
        self.usbPlan = usbPlan
        self.unplannedLenses = unplannedLenses
        self.microphones = microphones
        self.rigMicrophone = rigMicrophone
        self.microphoneRequired = microphoneRequired
        self.outputFolder = outputFolder
        self.encoder = encoder
        self.clockSource = clockSource
        self.kernelLog = kernelLog
    }
}
