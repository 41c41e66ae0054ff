import Foundation

/// Something the engine did or saw, as values: the one thing every listener subscribes to (the shell's printer,
/// `run`'s log, `pausecam ctl watch`, and later a browser monitor). No prose is stored here; `EngineEventText`
/// renders the words people read and `EngineEventJSON` the objects programs read, so each listener chooses.
public enum EngineEvent: Sendable, Equatable {
    /// A command was carried out or refused, whoever gave it; `status` queries are not told.
    case command(CommandEvent)
    /// The movie shows `lens` from now on (a switch took effect at the new lens's first frame, or a fallback).
    case lensSwitched(lens: String)
    /// The movie takes `lens`'s frames from `effective` on (session clock), for a switch asked at `requested`:
    /// every switch, commanded or not, at the moment it takes effect. Not printed by the shell (the reply or a
    /// `lensSwitched` line says it in words); for programs that follow the program's lens.
    case lensLive(lens: String, requested: MediaTime, effective: MediaTime)
    /// A point of the program picture was asked for focus and exposure (`focus at X Y`, a tap on the monitor): what
    /// the camera of the lens shown did. Not printed by the shell (the command's reply says it in words); for
    /// programs that follow the camera's settings.
    case focusAtPoint(FocusAtPointEvent)
    /// A switch was abandoned: `lens` lost its camera before delivering a frame; the movie stays on `stayingOn`.
    case lensLostBeforeFirstFrame(lens: String, stayingOn: String)
    /// The active lens stopped delivering: the movie holds its last picture.
    case lensHolding(lens: String)
    /// No lens has a camera: the clip goes on with sound only until one is plugged in.
    case noCameraLeft
    /// A camera (named by the device) now serves `lens`.
    case cameraAttached(lens: String, camera: String)
    /// The camera of `lens` went away (unplugged, ended).
    case cameraLost(lens: String, reason: String)
    /// The camera of `lens` could not start streaming.
    case cameraFailedToStart(lens: String, camera: String, reason: String)
    /// A lens choice that came to nothing after the command's reply (a camera failed to start meanwhile).
    case lensChoiceRefused(reason: String)
    /// `lens`'s camera could not start for lack of bandwidth on its USB bus (`bus`), so PauseCam stopped the
    /// camera of `stopped` (a hot lens on the same bus, not the one shown) and starts `lens`'s once more;
    /// `stopped` is cold from then on. The movie stays on the lens it showed until `lens` delivers.
    case lensStoppedForBandwidth(stopped: String, lens: String, bus: String)
    /// The microphone could not start.
    case microphoneFailedToStart(microphone: String, reason: String)
    /// A (re)plugged microphone was taken; `nextClip` when the running clip has no sound track to resume.
    case microphoneAttached(microphone: String, nextClip: Bool)
    /// The microphone ended; the clip goes on with silence.
    case microphoneStopped(reason: String)
    /// Sound again after the microphone ended, at this movie time.
    case microphoneBack(movieTime: MediaTime)
    /// A voice's microphone ended (unplugged): its track goes on in silence, the other voices are untouched.
    case voiceGone(voice: String, reason: String)
    /// A voice's microphone is back: its track has sound again from this movie time (`nil`: no clip records).
    case voiceBack(voice: String, movieTime: MediaTime?)
    /// A voice has been below `LevelMeter.silenceFloor` for `seconds` while recording.
    case voiceSilent(voice: String, seconds: Int)
    /// A live destination is connected and sending (`destination` is its name, never its URL).
    case liveStarted(destination: String, address: String)
    /// A live destination refused or dropped; it is tried again after `retryIn`. `reason` never holds the URL.
    case liveLost(destination: String, reason: String, retryIn: MediaTime)
    /// A live destination is sending again after an outage of `outage`.
    case liveBack(destination: String, outage: MediaTime)
    /// A voice reached full scale (`samples` clipped since the last such event): lower its gain or the input's.
    case voiceClipping(voice: String, samples: Int)
    /// The webcam's loopback device went away (the module unloaded, the device removed): the program no longer
    /// reaches it until the rig starts again; the recording goes on.
    case webcamLost(device: String, reason: String)
    /// `follow` cut the program to `lens` because `voices` speak (empty: nobody does).
    case followCut(lens: String, voices: [String])
    /// The encoder dropped `count` frames within the last `interval`.
    case framesDropped(count: Int, interval: MediaTime)
    /// The process did not run for `duration` while a clip recorded (stopped with Ctrl-Z or SIGSTOP, or the
    /// machine asleep): the picture was held over the gap, and the frames dropped catching up are not the encoder's.
    case suspended(duration: MediaTime)
    /// Free space where the clip is written fell below the warning level.
    case diskLow(freeBytes: Int64)
    /// Free space fell so low that the clip is stopped and saved while it can still be finished.
    case diskFull(freeBytes: Int64)
    /// The movie sink failed (a write error): the clip is stopped, keeping what was written.
    case recordingFailed(reason: String)
    /// A clip got no video frame between record and stop, so nothing was kept.
    case nothingRecorded
    /// The countdown before a clip: this many whole seconds are left (`3…`).
    case countdown(secondsLeft: Int)
    /// The countdown reached zero and the clip was started (or could not be: `ok` false), with `record`'s reply.
    case countdownEnded(message: String, ok: Bool)
    /// A clip was finished and saved.
    case clipSaved(ClipSavedEvent)
    /// A clip could not be finished; with `partialKept`, its `.partial` holds the recording (otherwise it is gone,
    /// deleted while recording), and `isoPartials` are the `.partial`s of its ISO movies, kept as they are.
    case clipFailed(moviePath: String, reason: String, partialKept: Bool, isoPartials: [String] = [])
    /// The movie's `.partial` lost its name while recording (deleted by hand, or with its folder): nothing more of
    /// the clip can be saved, so it is stopped.
    case movieFileDeleted(partialPath: String)
    /// A condition the user should look at, and where it was noted.
    case warning(EngineWarning, noted: WarningNote)
    /// A fact from setting the rig up (the encoder measured, a camera not found, a device watch that could not
    /// start) or from the rig's group: one case per fact (`EngineNotice`), which also says whether it is a warning.
    case notice(EngineNotice)
    /// `lens`'s camera streams but has sent no frame for `silence`: the freeze watchdog restarts it, attempt
    /// `attempt` of `of` — its stream stopped and started, or with `reopen` its device closed and opened again.
    case cameraRestarting(lens: String, attempt: Int, of: Int, reopen: Bool, silence: MediaTime)
    /// A watchdog restart of `lens`'s camera failed (the device would not stream or open); the next attempt
    /// follows after its wait.
    case cameraRestartFailed(lens: String, attempt: Int, of: Int, reason: String)
    /// `lens`'s camera sends frames again after `restarts` watchdog restarts.
    case cameraRecovered(lens: String, restarts: Int)
    /// `lens`'s camera has sent nothing for `silence` despite `restarts` restarts: the watchdog stops trying (a
    /// frame later still counts as recovered).
    case cameraGaveUp(lens: String, restarts: Int, silence: MediaTime)
    /// The recording time left (`RecordingTimeLeft`) fell to ten minutes or less (`low`), or rose clear of it again;
    /// `seconds` left at `bytesPerSecond`, the rate the clip writes at.
    case recordingTimeLeft(seconds: Int, low: Bool, bytesPerSecond: Double)
}

/// A command carried out (or refused) on the serial context, with the state it left.
public struct CommandEvent: Sendable, Equatable {
    /// Who gave the command.
    public var source: CommandSource
    /// The command in the shell's grammar (`zoom 2x`, `mark "good take"`).
    public var line: String
    /// Whether it was carried out.
    public var ok: Bool
    /// The reply people read (`recording scene 1 to …`, or why it was refused).
    public var message: String
    /// The state after the command.
    public var state: Session.State
    public var scene: Int
    public var movieTime: MediaTime
    public var lens: String

    public init(source: CommandSource, line: String, ok: Bool, message: String, state: Session.State, scene: Int,
                movieTime: MediaTime, lens: String) {
        self.source = source
        self.line = line
        self.ok = ok
        self.message = message
        self.state = state
        self.scene = scene
        self.movieTime = movieTime
        self.lens = lens
    }
}

/// Where a command came from: the shell's own prompt, a scene script, the control socket, a pedal signal, or the
/// browser monitor.
public enum CommandSource: Sendable, Equatable {
    case shell
    case script(name: String)
    case remote
    case signal(name: String)
    case web
    /// A command of the rig's group (`group:`), published by the member `host` and applied here at its slot.
    case group(host: String)

    /// The name `watch` prints in `source`, and the shell in "(remote)".
    public var name: String {
        switch self {
        case .shell: return "shell"
        case .script: return "script"
        case .remote: return "remote"
        case .signal(let name): return name
        case .web: return "web"
        case .group: return "group"
        }
    }

    /// True for commands given to this member (not applied on behalf of its group): a group's recording commands
    /// given here are sent to the whole group.
    public var isLocal: Bool {
        if case .group = self { return false }
        return true
    }

    /// True for commands given outside this process's own input (the shell prints those as events, since
    /// nobody there typed them).
    public var isFromOutside: Bool {
        switch self {
        case .remote, .signal, .web, .group: return true
        case .shell, .script: return false
        }
    }
}

/// A saved clip: where, how many scenes, how long, what was lost.
public struct ClipSavedEvent: Sendable, Equatable {
    public var moviePath: String
    public var scenes: Int
    public var duration: MediaTime
    public var droppedFrames: Int
    /// Samples each device's mailbox dropped before the engine took them (role, count), only those above zero.
    public var mailboxDrops: [MailboxDrop]

    public struct MailboxDrop: Sendable, Equatable {
        public var role: String
        public var count: Int
        public init(role: String, count: Int) { self.role = role; self.count = count }
    }

    public init(moviePath: String, scenes: Int, duration: MediaTime, droppedFrames: Int, mailboxDrops: [MailboxDrop]) {
        self.moviePath = moviePath
        self.scenes = scenes
        self.duration = duration
        self.droppedFrames = droppedFrames
        self.mailboxDrops = mailboxDrops
    }
}

/// What a warning is about.
public enum EngineWarning: Sendable, Equatable {
    /// The input has been below `floorDBFS` for `seconds` while recording.
    case silentMicrophone(seconds: Int, floorDBFS: Double)
    /// A plugged-in microphone was not taken.
    case microphoneRefused(RigController.MicrophoneRefusal)
    /// After `lens`'s camera (`camera`) started, it reported another value than PauseCam set.
    case settingNotHeld(lens: String, camera: String, mismatch: LensCameraSettings.Mismatch)
}

/// Where a warning was written down besides being told.
public enum WarningNote: Sendable, Equatable {
    /// In the running clip's sidecar.
    case clip
    /// In the next clip's sidecar (no clip runs now).
    case nextClip
    /// Told only.
    case nowhere
}
