/// One command of PauseCam's single grammar: a line typed at the shell, a step of a rig's scene script, or a
/// remote-control message all become this value, so the three surfaces can never disagree.
public enum Command: Sendable, Equatable {
    /// Start a clip; the name, if any, is scene 1's. `countdown` is the seconds counted down before the first
    /// frame (`record --countdown 3`): `nil` takes the rig's `countdown:` for a person's `record` and none for a
    /// script's, 0 starts at once.
    case record(name: String?, countdown: Int? = nil)
    case pause
    /// Go on recording; every resume begins a new scene, optionally named.
    case resume(name: String?)
    case stop
    /// The one-button verb (a foot pedal, a Stream Deck key, SIGUSR1): `record` when idle, `pause` when recording,
    /// `resume` when paused, so a single binding drives a whole take without knowing the state.
    case toggle
    /// A new scene without a pause, from the next video frame: the scene counter, the movie's chapters and the
    /// sidecar's scenes show it, while audio and video run on untouched (`resume NAME` needs a pause first).
    case chapter(name: String?)
    /// Throw away the scene being recorded and record it again from where it began: the movie goes on as if the
    /// take had never been recorded (no chapter, no gap; the timer goes back to the scene's start).
    case retake
    /// Switch to the lens of this rig role, or to the next lens in rig order.
    case lens(LensChoice)
    /// Apply a zoom preset by name, or a zoom factor (lens chosen by factor, then digital zoom).
    case zoom(ZoomChoice)
    /// Apply an exposure preset, automatic exposure, or an exposure bias in EV.
    case exposure(ExposureChoice)
    /// Automatic focus, a fixed focus position (the camera's own units), or focus and exposure for a point of the
    /// program picture (a tap on the monitor).
    case focus(FocusChoice)
    /// A marker at the current file time, in the current scene, named by the text; `nil` (a bare `mark`) names it
    /// by its number in the clip ("Marker 3"), so a pedal, a hotkey or a tap marks without words.
    case mark(String?)
    /// `mark rename N TEXT`: gives marker `number` of the recording clip (as `mark`'s reply numbered it) a new name.
    case renameMarker(number: Int, name: String)
    /// `follow on|off`: whether the lens follows who speaks (a rig with `follow:`).
    case follow(Bool)
    /// `live on|off [NAME]`: one live destination (by its name), or every one, goes live or stops (a rig with
    /// `live:`); the recording is untouched.
    case live(on: Bool, destination: String?)
    /// `voice NAME mute|unmute|gain +3dB`: one voice's part in the mix (its own track keeps recording).
    case voice(name: String, change: VoiceChange)
    /// Let time pass (scripts and piped shells).
    case wait(MediaTime)
    /// Print the state.
    case status
    // Shell-only commands: not allowed as script steps.
    /// List the cameras (and which lens each serves).
    case devices
    /// Run a rig script from the shell.
    case run(script: String)
    /// Show (or play) the last clip.
    case last(play: Bool)
    /// Help on all commands or one.
    case help(topic: String?)
    /// The shell's hotkey mode: single keys act without Enter (`Rig.keys` and the default map), until `q`.
    case keys
    case quit

    public enum LensChoice: Sendable, Equatable {
        case named(String)
        case next
    }

    public enum ZoomChoice: Sendable, Equatable {
        case preset(String)
        /// A zoom factor such as 1.5 (typed `zoom 1.5`); a factor is a ratio, not a time, so a Double is fine.
        case factor(Double)
    }

    public enum ExposureChoice: Sendable, Equatable {
        case preset(String)
        case auto
        /// Exposure bias in EV, e.g. +0.7.
        case bias(Double)
    }

    public enum VoiceChange: Sendable, Equatable {
        case mute
        case unmute
        /// The voice's gain in dB, from `Rig.AudioOptions.gainRange`.
        case gain(Double)
    }

    public enum FocusChoice: Sendable, Equatable {
        case auto
        case manual(Int)
        /// Focus and expose for the point (`x`, `y`) of the program picture, each from 0 (left, top) to 1 (right,
        /// bottom), as the monitor shows it: typed `focus at 0.5 0.5`. The engine maps it back to the camera's
        /// picture (`TapRegion`) and uses the camera's region of interest, or one-shot autofocus without one.
        case point(x: Double, y: Double)
    }

    /// The command word, as typed.
    public var word: String {
        switch self {
        case .record: return "record"
        case .pause: return "pause"
        case .resume: return "resume"
        case .stop: return "stop"
        case .toggle: return "toggle"
        case .chapter: return "chapter"
        case .retake: return "retake"
        case .lens: return "lens"
        case .zoom: return "zoom"
        case .exposure: return "exposure"
        case .focus: return "focus"
        case .mark, .renameMarker: return "mark"
        case .follow: return "follow"
        case .live: return "live"
        case .voice: return "voice"
        case .wait: return "wait"
        case .status: return "status"
        case .devices: return "devices"
        case .run: return "run"
        case .last: return "last"
        case .help: return "help"
        case .keys: return "keys"
        case .quit: return "quit"
        }
    }

    /// True for commands a scene script may contain.
    public var isScriptStep: Bool {
        switch self {
        case .devices, .run, .last, .help, .keys, .quit: return false
        default: return true
        }
    }

    /// The seconds `record --countdown N` and the rig's `countdown:` may count: a minute is more than any
    /// presenter needs to take their place.
    public static let countdownRange = 0...60

    /// Every command word, in the order `help` lists them.
    public static let words = ["record", "pause", "resume", "stop", "toggle", "chapter", "retake", "lens", "zoom",
                               "exposure", "focus", "mark", "follow", "live", "voice", "wait", "status", "devices", "run", "last", "help",
                               "keys", "quit"]

    /// Other spellings of a command word and the word they stand for: `exit` and `q` are what people type to leave
    /// any shell, so they quit here too rather than being "unknown commands".
    public static let aliases: [String: String] = ["exit": "quit", "q": "quit"]
}
