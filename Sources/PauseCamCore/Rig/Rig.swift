/// A rig: the user's set-up, decoded from a YAML rig file (see README, "Rig files"). Every value here has been
/// validated; defaults are filled in.
public struct Rig: Sendable, Equatable {
    /// The rig's name (`name:`), used in file names (`{rig}`) and the sidecar.
    public var name: String
    public var output: OutputSettings
    public var audio: AudioInput
    /// The lenses in file order: the order `lens next` walks.
    public var lenses: [Lens]
    /// The lens active when the rig starts (`default_lens`, else the first).
    public var defaultLens: String
    public var standby: Standby
    /// With `standby: auto`, the lenses that stay cold; every other lens is hot. Empty until the composition root
    /// has planned the rig on this machine, so an undecided `auto` acts as `hot`.
    public var autoColdLenses: Set<String> = []
    public var onAttach: AttachPolicy
    /// Zoom presets in file order.
    public var zoomPresets: [ZoomPreset]
    /// Exposure presets in file order.
    public var exposurePresets: [ExposurePreset]
    /// Scene scripts in file order.
    public var scripts: [Script]
    /// The largest digital (centre-crop) zoom a command or preset may ask for (`max_digital_zoom`, default 4):
    /// beyond it the picture is mostly upscaled blur, so the command is refused with the limit named.
    public var maxDigitalZoom: Double
    /// How long the last picture is held when no lens delivers (every camera unplugged) before a "no signal" slate
    /// fills the movie (`hold:`, default 2 s). The movie never has a hole; audio goes on.
    public var hold: MediaTime
    /// Where the browser monitor listens (`web: {listen: …}`); `nil` for the default, the rig's own loopback port
    /// (`MonitorListenAddress.rigPort`).
    public var web: MonitorListenAddress?
    /// What decoding found that does not stop the rig but will not work as written (`RigWarning`), in file order;
    /// empty for a rig built in code.
    public var warnings: [RigWarning] = []
    /// Seconds counted down (shown, and a bell each second) before a clip that a person starts — `record` or
    /// `toggle` from the shell, a remote, a pedal — so they can take their place (`countdown:`, default 0). A
    /// script's `record` never waits: its timing is its own. `record --countdown N` overrides it.
    public var countdown: Int = 0
    /// The shell's hotkeys set in the rig (`keys:`), in file order: each replaces the default for its key.
    public var keys: [Hotkey] = []
    /// How long a streaming camera may go without a frame before PauseCam restarts its stream (`watchdog:`,
    /// default 2 s); a lens's own `watchdog:` overrides it. See `FreezeWatchdog`.
    public var watchdog: MediaTime = Rig.defaultWatchdog
    /// The `watchdog:` of a rig that names none: long enough for a camera at its slowest (a few frames per second
    /// in the dark), short enough that a frozen camera is back within seconds.
    public static let defaultWatchdog = MediaTime.seconds(2)
    /// The machines this rig records together with (`group:`); `nil` for a rig on its own.
    public var group: GroupSettings?
    /// `follow:` — the lens follows who speaks, in a rig of several voices; `nil` without it.
    public var follow: Follow?
    /// `live:` — the program as a webcam and as streams, from start to quit; `nil` without it.
    public var live: Live?

    /// The freeze watchdog's limit for `lens`: its own `watchdog:`, else the rig's.
    public func watchdog(forLens lens: String) -> MediaTime {
        self.lens(named: lens)?.watchdog ?? watchdog
    }

    /// One key of the shell's hotkey mode and the command line of the shell's grammar it carries out.
    public struct Hotkey: Sendable, Equatable {
        /// The key: one character; `space` in the rig file is the space bar.
        public var key: Character
        /// The command line, as written (`lens tele`, `mark good take`), already checked by the parser.
        public var line: String
        public init(key: Character, line: String) {
            self.key = key
            self.line = line
        }
    }

    public init(name: String, output: OutputSettings = OutputSettings(), audio: AudioInput = AudioInput(),
                lenses: [Lens], defaultLens: String? = nil, standby: Standby = .hot, onAttach: AttachPolicy = .switch,
                zoomPresets: [ZoomPreset] = [], exposurePresets: [ExposurePreset] = [], scripts: [Script] = [],
                maxDigitalZoom: Double = 4, hold: MediaTime = .seconds(2), web: MonitorListenAddress? = nil) {
        self.name = name
        self.output = output
        self.audio = audio
        self.lenses = lenses
        self.defaultLens = defaultLens ?? lenses.first?.name ?? ""
        self.standby = standby
        self.onAttach = onAttach
        self.zoomPresets = zoomPresets
        self.exposurePresets = exposurePresets
        self.scripts = scripts
        self.maxDigitalZoom = maxDigitalZoom
        self.hold = hold
        self.web = web
    }

    /// The names a user can type for this rig: what the command parser checks and the shell completes.
    public struct Names: Sendable, Equatable {
        public var lenses: [String]
        public var zoomPresets: [String]
        public var exposurePresets: [String]
        public var scripts: [String]
    }

    /// Lens roles, zoom and exposure preset names and script names, in file order.
    public var names: Names {
        Names(lenses: lenses.map(\.name), zoomPresets: zoomPresets.map(\.name),
              exposurePresets: exposurePresets.map(\.name), scripts: scripts.map(\.name))
    }

    /// The lens with this role name.
    public func lens(named name: String) -> Lens? { lenses.first { $0.name == name } }
    /// The zoom preset with this name.
    public func zoomPreset(named name: String) -> ZoomPreset? { zoomPresets.first { $0.name == name } }
    /// The exposure preset with this name.
    public func exposurePreset(named name: String) -> ExposurePreset? { exposurePresets.first { $0.name == name } }
    /// The script with this name.
    public func script(named name: String) -> Script? { scripts.first { $0.name == name } }

    /// `output:`: where and how movies are written.
    public struct OutputSettings: Sendable, Equatable {
        /// The folder, as written (`~` and `$XDG_VIDEOS_DIR` are expanded by the composition root).
        public var directory: String
        /// File-name pattern with `{rig}`, `{date}`, `{time}`, `{script}`.
        public var namePattern: String
        public var container: MovieSettings.Container
        public var width: Int
        public var height: Int
        public var rate: FrameRate
        public var preset: String
        public var crf: Int
        public var keyframeInterval: MediaTime
        public var audioBitrate: Int
        /// `exports:`: formats written beside the movie after every clip.
        public var exports: [ExportFormat] = []
        /// `iso:`: the lenses recorded each into a movie of its own beside the program (`NAME.iso/ROLE.mov`), on
        /// the program's timeline; empty records the program only.
        public var iso: [String] = []
        /// Where `iso:` is written, for a verdict on this machine that names it (ISOs too many for the encoder).
        public var isoMark: SourceMark?

        public init(directory: String = "~/Videos/PauseCam", namePattern: String = "{rig}-{date}-{time}",
                    container: MovieSettings.Container = .mov, width: Int = 1920, height: Int = 1080,
                    rate: FrameRate = FrameRate(30), preset: String = "veryfast", crf: Int = 20,
                    keyframeInterval: MediaTime = .seconds(2), audioBitrate: Int = 128_000) {
            self.directory = directory
            self.namePattern = namePattern
            self.container = container
            self.width = width
            self.height = height
            self.rate = rate
            self.preset = preset
            self.crf = crf
            self.keyframeInterval = keyframeInterval
            self.audioBitrate = audioBitrate
        }
    }

    /// `audio:`: the microphone.
    public struct AudioInput: Sendable, Equatable {
        public enum Device: Sendable, Equatable {
            /// An ALSA PCM name such as `default` or `hw:1,0`.
            case alsa(String)
            /// The virtual microphone (sync beeps).
            case virtual
            /// The sound card a rule picks through udev (`match: {usb: "046d:085b"}`), whatever its card number.
            case matched(MatchRule)
            /// The microphone of the camera serving that lens (`lens: tele`): the sound card on the same USB device.
            case ofLens(String)
            /// No audio: a video-only movie.
            case none
        }
        public var device: Device
        /// When true, a microphone that cannot be opened is an error; when false, a warning and video only.
        public var required: Bool
        /// Declicking, and the virtual microphone's test signal (`AudioOptions.swift`).
        public var options: AudioOptions
        /// `audio:` as a list: every voice on its own track beside a stereo mix (`Rig+Voices.swift`). Empty for
        /// today's one-microphone form, which `device` describes; when not empty, `device` is `.none` and unused.
        public var voices: [Voice] = []
        public init(device: Device = .alsa("default"), required: Bool = false, options: AudioOptions = AudioOptions()) {
            self.device = device
            self.required = required
            self.options = options
        }
    }

    /// One lens: a role (wide, main, tele…) served by a real camera or a virtual one.
    public struct Lens: Sendable, Equatable {
        public var name: String
        /// The zoom factor this lens stands for (0.5 for an ultra-wide, 3 for a tele).
        public var zoom: Double
        public var source: Source
        public var format: CaptureFormat
        /// Requested capture size; `nil` lets the camera choose its largest.
        public var width: Int?
        public var height: Int?
        public var rate: FrameRate?
        /// `controls:` applied when the lens opens.
        public var controls: Controls
        /// How long after the light hit the sensor this camera stamps a frame (`latency: 40ms`): subtracted from its
        /// timestamps, so cameras with different pipelines stay in sync with the microphone.
        public var latency: MediaTime
        /// How the lens's picture is turned and mirrored before it is fitted into the canvas (`rotate:`,
        /// `mirror:`): a camera mounted on its side or upside down records upright. Fixed for the rig's life.
        public var orientation: PictureOrientation
        /// Where the lens's camera sits on USB (`usb_port: {port: 1-1.2, speed: 480}`), for the bandwidth plan of a
        /// rig whose camera is not plugged in when it is checked; a connected camera's own place wins.
        public var usbPort: USBPlacement?
        /// This lens's `watchdog:` (how long its camera may send nothing before its stream is restarted); `nil`
        /// takes the rig's.
        public var watchdog: MediaTime?
        /// The magnification a PTZ camera's optical zoom gives at the far end of its `zoom_absolute` range, relative
        /// to `zoom` (`optical_max: 3` for a 3× optical zoom); `nil` when the lens has none. With it, `zoom F`
        /// uses the optics before any digital zoom (`OpticalZoom`); presets' `optical:` work without it.
        public var opticalMax: Double?

        public init(name: String, zoom: Double = 1, source: Source, format: CaptureFormat = .auto, width: Int? = nil,
                    height: Int? = nil, rate: FrameRate? = nil, controls: Controls = Controls(),
                    latency: MediaTime = .zero, orientation: PictureOrientation = .upright,
                    usbPort: USBPlacement? = nil) {
            self.name = name
            self.zoom = zoom
            self.source = source
            self.format = format
            self.width = width
            self.height = height
            self.rate = rate
            self.controls = controls
            self.latency = latency
            self.orientation = orientation
            self.usbPort = usbPort
        }

        public enum Source: Sendable, Equatable {
            /// A real camera found by a match rule.
            case camera(MatchRule)
            /// A virtual lens drawing the test pattern in this colour.
            case virtual(color: RGBColor)
            /// A movie file replayed as if it were a camera (`file: PATH`, `loop: true`), at the file's own frame
            /// rate: rehearsals with real footage, and camera-like pictures (real JPEGs) without hardware. `path`
            /// is absolute, or relative to the rig file's folder once decoded (see `RigDecoder`); `~/` is left for
            /// the composition root to expand. Without `loop` the lens ends at the file's end, like an unplug.
            case file(path: String, loop: Bool)
        }

        /// The pixel format a camera lens asks for (`format:`). `any` takes MJPEG when the camera offers it, else
        /// YUYV. `auto`, the default, decides per camera from the USB plan (`USBFormatAutoChoice`): MJPEG for
        /// cameras sharing a host controller, YUYV for a camera alone on one when its YUYV stream fits; where
        /// there is no plan (a camera not on USB, cameras that cannot be listed), `auto` acts as `any`.
        public enum CaptureFormat: String, Sendable, Equatable, CaseIterable { case mjpeg, yuyv, any, auto }
    }

    /// How a rig finds its camera: exactly one property compared.
    public enum MatchRule: Sendable, Equatable, Hashable, CustomStringConvertible {
        /// udev `ID_SERIAL_SHORT` / `ID_SERIAL`, exact.
        case serial(String)
        /// udev `ID_PATH`, exact.
        case path(String)
        /// A substring of the V4L2 card name, case-insensitive.
        case name(String)
        /// USB vendor:product, e.g. "046d:085b".
        case usb(String)
        /// V4L2 bus info, exact.
        case bus(String)
        /// The device node, e.g. `/dev/video2`.
        case device(String)

        /// True when `camera` satisfies this rule.
        public func matches(_ camera: CameraIdentity) -> Bool {
            switch self {
            case .serial(let s): return camera.serial == s
            case .path(let p): return camera.path == p
            case .name(let n): return camera.name.lowercased().contains(n.lowercased())
            case .usb(let u): return camera.usb?.lowercased() == u.lowercased()
            case .bus(let b): return camera.bus == b
            case .device(let d): return camera.devicePath == d
            }
        }

        public var description: String {
            switch self {
            case .serial(let v): return "serial \"\(v)\""
            case .path(let v): return "path \"\(v)\""
            case .name(let v): return "name \"\(v)\""
            case .usb(let v): return "usb \"\(v)\""
            case .bus(let v): return "bus \"\(v)\""
            case .device(let v): return "device \"\(v)\""
            }
        }
    }

    /// Camera controls as the rig asks for them; `nil` leaves the camera's own setting.
    public struct Controls: Sendable, Equatable {
        public enum Mode: Sendable, Equatable {
            case auto
            case manual(Int)
        }
        public enum PowerLine: String, Sendable, Equatable, CaseIterable { case disabled, hz50 = "50hz", hz60 = "60hz", auto }
        public var exposure: Mode?
        public var focus: Mode?
        public var powerLine: PowerLine?
        /// `exposure_priority:` — whether auto exposure may lower the frame rate in low light (UVC's
        /// `exposure_auto_priority`, on by default in most cameras). `nil` turns it off, so a camera keeps its rate;
        /// `true` leaves the camera free to slow down.
        public var exposurePriority: Bool?
        public init(exposure: Mode? = nil, focus: Mode? = nil, powerLine: PowerLine? = nil, exposurePriority: Bool? = nil) {
            self.exposure = exposure
            self.focus = focus
            self.powerLine = powerLine
            self.exposurePriority = exposurePriority
        }
    }

    public enum Standby: String, Sendable, Equatable, CaseIterable {
        /// Every lens streams all the time; switches are instant.
        case hot
        /// A lens's camera opens when it becomes active.
        case cold
        /// Hot for the lenses whose USB bus carries every camera lens on it at once, cold for the others
        /// (`USBStandbyAutoChoice`); the composition root decides on this machine and fills `autoColdLenses`.
        case auto
    }

    public enum AttachPolicy: String, Sendable, Equatable, CaseIterable {
        /// Plugging in a lens's camera mid-clip switches to it.
        case `switch`
        /// It is attached but the active lens stays.
        case stay
    }

    /// `zoom_presets:` entry: a lens plus a digital (centre-crop) zoom reached over a ramp time, and for a PTZ
    /// camera where its motors go.
    public struct ZoomPreset: Sendable, Equatable {
        public var name: String
        public var lens: String
        /// Digital zoom factor ≥ 1 (1 = the whole frame).
        public var digital: Double
        /// How long the digital zoom (and the camera's motors) take to reach the preset.
        public var ramp: MediaTime
        /// The PTZ camera's position: `optical:` is `zoom` (zoom units), `ptz: {pan:, tilt:}` the other two. Not
        /// checked against a camera when the rig loads (the camera may not be plugged in); a value outside the
        /// camera's range is brought into it when the preset is applied, with a warning.
        public var ptz = PTZPosition()
        public init(name: String, lens: String, digital: Double = 1, ramp: MediaTime = .zero) {
            self.name = name
            self.lens = lens
            self.digital = digital
            self.ramp = ramp
        }
    }

    /// `exposure_presets:` entry.
    public struct ExposurePreset: Sendable, Equatable {
        public var name: String
        public enum Setting: Sendable, Equatable {
            /// Automatic exposure with a bias in EV.
            case bias(Double)
            /// Manual exposure: exposure time, and gain if given.
            case manual(time: MediaTime, gain: Int?)
            /// Automatic exposure, no bias.
            case auto
        }
        public var setting: Setting
        public init(name: String, setting: Setting) {
            self.name = name
            self.setting = setting
        }
    }

    /// `scripts:` entry: a named list of steps, each a `Command` the REPL would also accept.
    public struct Script: Sendable, Equatable {
        public var name: String
        public var steps: [Command]
        /// Where each step stands in the rig file, parallel to `steps`; empty for scripts built in code. The error
        /// of a failed step names it (`rigs/desk.yaml:42`).
        public var stepMarks: [SourceMark]
        /// What a failed step does to the rest of the script (`on_error:`; `stop` unless the rig says otherwise).
        public var onError: OnError

        /// `on_error:` of a script.
        public enum OnError: String, Sendable, Equatable, CaseIterable {
            /// The first failed step ends the script; the clip in progress is stopped and saved (like `set -e`).
            case stop
            /// A failed step is reported and the script goes on (`pausecam run --keep-going` does the same).
            case `continue`
        }

        public init(name: String, steps: [Command], stepMarks: [SourceMark] = [], onError: OnError = .stop) {
            self.name = name
            self.steps = steps
            self.stepMarks = stepMarks
            self.onError = onError
        }

        /// The sum of the script's `wait` steps.
        public var scriptedTime: MediaTime {
            steps.reduce(MediaTime.zero) { total, step in
                if case .wait(let d) = step { return total + d }
                return total
            }
        }
    }
}

/// An sRGB colour, as in `"#20c040"`.
public struct RGBColor: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var red: UInt8, green: UInt8, blue: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb` (or `rrggbb`); `nil` otherwise.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        self.init(red: UInt8((v >> 16) & 0xff), green: UInt8((v >> 8) & 0xff), blue: UInt8(v & 0xff))
    }

    public var description: String {
        "#" + [red, green, blue].map { let h = String($0, radix: 16); return h.count == 1 ? "0" + h : h }.joined()
    }
}
