/// The shell's `help` texts: one line per command for `help`, and a longer text with examples for `help COMMAND`.
/// Kept beside the shell (not the parser) because they describe how the shell behaves, Ctrl-C included.
public enum ShellHelp {
    /// One line per command, in `Command.words` order.
    public static let summaries: [(usage: String, summary: String)] = [
        ("record [--countdown N] [NAME]", "start a clip (scene 1, optionally named), after N seconds counted down"),
        ("pause", "pause; the gap is cut out of the movie"),
        ("resume [NAME]", "go on recording; starts a new scene (a chapter)"),
        ("stop", "stop and save the clip"),
        ("toggle", "one button: record when idle, pause when recording, resume when paused"),
        ("chapter [NAME]", "a new scene (a chapter) from the next frame, without a pause"),
        ("retake", "throw the scene being recorded away and record it again from its start"),
        ("lens ROLE|next", "switch to a lens of the rig"),
        ("zoom PRESET|FACTOR", "a zoom preset (zoom 2x) or a factor (zoom 1.5)"),
        ("exposure PRESET|auto|±EV", "exposure preset, automatic, or a bias such as +0.7"),
        ("focus auto|N|at X Y", "automatic focus, a fixed position, or a point of the picture"),
        ("mark [TEXT|rename N TEXT]", "a marker at the clip's current time (numbered without TEXT), or names marker N"),
        ("follow on|off", "let the lens follow who speaks (a rig with follow:), or stop it"),
        ("live on|off [NAME]", "the program to the rig's live: destinations (or one), or stop it; recording untouched"),
        ("voice NAME mute|unmute|gain DB", "a voice's part in the mix: mute, unmute, or its gain (+3dB)"),
        ("wait DURATION", "let time pass (5s, 2.5s, 400ms, 1m30s); Ctrl-C ends it"),
        ("status", "state, scene, time, lens and file"),
        ("devices", "the cameras and which lens each serves"),
        ("run SCRIPT", "run one of the rig's scene scripts; Ctrl-C stops the script, not the recording"),
        ("last [play]", "path, duration and thumbnail of the last clip; play opens it"),
        ("help [COMMAND]", "this list, or more about one command"),
        ("keys", "hotkey mode: single keys act without Enter (help keys); q leaves"),
        ("quit|exit|q", "leave the shell (a recording is stopped and saved first)"),
    ]

    /// `help`: every command on one line.
    public static var overview: String {
        let width = summaries.map(\.usage.count).max() ?? 0
        let lines = summaries.map { "  " + $0.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary }
        return (["commands (Tab completes words and names; ↑ recalls history):"] + lines
                + ["Ctrl-C during a recording asks first; Ctrl-D or quit stops and saves.",
                   "Lines starting with # are comments. Errors go to standard error; a session in which a command",
                   "failed exits with status 1 (--on-error stop ends it at the first failure)."]).joined(separator: "\n")
    }

    /// `help COMMAND`: the longer text.
    public static func details(_ word: String) -> String {
        switch word {
        case "record":
            return """
            record [NAME]
              Starts a new clip on the active lens. NAME names scene 1 (its chapter title); without it the scene is
              "Scene 1". The movie is written as NAME.mov.partial while recording and becomes NAME.mov at stop.
              --countdown N counts N seconds down first (3… 2… 1… with a bell each second; the rig's countdown:
              sets it for every record and toggle given by a person, --countdown 0 skips it): the movie starts
              after it. stop or Ctrl-C during the countdown cancels it, with nothing recorded.
              Example: record Intro
              Example: record --countdown 3 Intro
            """
        case "pause":
            return """
            pause
              Pauses the clip. Nothing captured while paused reaches the movie: the timer in the prompt freezes.
              resume goes on in a new scene; stop saves the clip.
            """
        case "resume":
            return """
            resume [NAME]
              Goes on recording after pause. Every resume starts a new scene, which becomes a chapter of the movie.
              Example: resume Second take
            """
        case "keys":
            return """
            keys
              Hotkey mode: single keys act at once, without Enter, while the prompt keeps showing the live state.
              space toggles (record, pause, resume), m marks (a numbered marker), c starts a chapter, r retakes the scene,
              1…9 pick the rig's lenses and then its zoom presets in rig order; q (or Ctrl-C, Ctrl-D) leaves the
              mode. The rig's keys: map changes or adds keys (x: mark good take). The map is shown on entering.
              Needs a terminal. `pausecam shell RIG --keys` starts in this mode.
            """
        case "toggle":
            return """
            toggle
              The one-button command for a foot pedal or a Stream Deck key: record when no clip is recording,
              pause when recording, resume when paused. The reply says which it did. SIGUSR1 does the same, and
              so does `pausecam ctl toggle` from another terminal. During a countdown before a clip it cancels
              the countdown.
            """
        case "chapter":
            return """
            chapter [NAME]
              Starts a new scene without pausing: from the next video frame on, the scene counter, the movie's
              chapters and the sidecar's scenes show the new scene; sound and picture run on untouched. Needs a
              running recording (after a pause, resume NAME begins the new scene).
              Example: chapter Questions
            """
        case "retake":
            return """
            retake
              Throws the scene being recorded away and goes on recording it from where it began, as if the take
              had never been recorded: no chapter, no gap; the timer goes back to the scene's start, and the
              take's markers go with it. The sidecar notes it (retakes: scene, discarded_duration). Needs a
              running recording: while paused the scene before the pause is kept (resume, then retake, to record
              the new scene again). Until the clip is saved its .partial still holds the discarded take.
            """
        case "stop":
            return """
            stop
              Stops the clip and saves it: the movie, its JSON sidecar and a thumbnail. The shell waits until it is
              saved and says where it is.
            """
        case "lens":
            return """
            lens ROLE|next
              Switches to the lens with this role in the rig (Tab lists them), or to the next one that has a camera.
              The switch is cut on a frame and starts with a keyframe.
              Example: lens tele
            """
        case "zoom":
            return """
            zoom PRESET|FACTOR
              A zoom preset of the rig (a lens and a digital zoom, perhaps ramped), or a factor: the longest lens
              that does not overshoot it, then digital zoom for the rest. A factor wider than every lens uses the
              widest and says so; digital zoom beyond the rig's max_digital_zoom (4x unless the rig sets it) is
              refused. The prompt shows the lens and its digital zoom, as the reply does.
              Examples: zoom 2x    zoom 1.5
            """
        case "exposure":
            return """
            exposure PRESET|auto|±EV
              An exposure preset of the rig, automatic exposure, or a bias in EV on the active lens.
              Examples: exposure auto    exposure +0.7    exposure -1
            """
        case "focus":
            return """
            focus auto|N|at X Y
              Automatic focus, or a fixed focus position in the camera's own units, on the active lens.
              `at X Y` focuses and exposes for a point of the program picture (X, Y from 0 to 1 from its left and
              top; a tap on the monitor sends it): the camera's region of interest where it has one, else one-shot
              autofocus.
              Examples: focus 40    focus at 0.5 0.5
            """
        case "mark":
            return """
            mark [TEXT]
            mark rename N TEXT
              A marker at the clip's current time, kept in the sidecar (and the exports) with its scene. Without
              TEXT it is numbered: "Marker 1", "Marker 2"… (every marker of the clip counts). The reply says the
              marker's number; `mark rename N TEXT` names marker N afterwards, while the clip records or is paused.
              Examples: mark good take    mark    mark rename 2 applause
            """
        case "live":
            return """
            live on|off [NAME]
              In a rig with live:, sends the program (the switched, zoomed picture and the sound) to every stream
              destination, or to the one named, or stops it. Live goes on from start to quit whatever the recording
              does: pauses and retakes cut only the recording. status shows each destination (LIVE, its bitrate,
              its drops); a lost destination is tried again by itself. Refused by a rig without live:.
              Examples: live off    live on youtube
            """
        case "follow":
            return """
            follow on|off
              In a rig of several voices with follow:, the program's lens follows who speaks: each voice's lens,
              the both: lens when several speak, the nobody: lens when none does. follow off keeps the lens where
              it is until follow on; a lens or zoom you give pauses following for the rig's manual_hold. Each cut
              is told as an event ("follow: lens wide (host speaks)"). Refused by a rig without follow:.
              Examples: follow off    follow on
            """
        case "voice":
            return """
            voice NAME mute|unmute|gain DB
              One voice of a rig whose audio: is a list (Tab lists them). mute leaves it out of the stereo mix
              and unmute puts it back; its own track records on either way. gain sets its gain, from -40dB to
              +40dB, on its track and its part of the mix. The prompt shows a meter per voice while recording
              (host▮▮▮▯ guest▮▯▯▯; muted host×, unplugged host–, clipping !).
              Examples: voice guest mute    voice host gain +3dB    voice host gain 0dB
            """
        case "wait":
            return """
            wait DURATION
              Lets time pass: useful in scripted sessions (commands piped into the shell). Ctrl-C ends the wait;
              the recording goes on. Examples: wait 5s    wait 400ms    wait 1m30s
            """
        case "status":
            return """
            status
              The state, scene, time, lens and digital zoom, the lenses with a camera, dropped frames and the file.
            """
        case "devices":
            return """
            devices
              The lenses of the rig, the camera serving each, and which are delivering right now.
            """
        case "run":
            return """
            run SCRIPT
              Runs one of the rig's scene scripts (Tab lists them) and prints each step. Ctrl-C stops the script,
              not the recording: stop it with stop.
            """
        case "last":
            return """
            last [play]
              The last saved clip: its path, duration, scenes and thumbnail. last play opens it with the desktop's
              player (xdg-open) when there is one.
            """
        case "help":
            return """
            help [COMMAND]
              The list of commands, or more about one. An unknown COMMAND is an error.
            """
        case "quit":
            return """
            quit (or exit, or q)
              Leaves the shell. A clip still recording is stopped and saved first; so does Ctrl-D or the end of
              piped input. The exit status is 1 when any command in the session failed, 0 otherwise.
            """
        default:
            return "no help for \"\(word)\""
        }
    }
}
