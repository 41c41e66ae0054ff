/// The lens policy of a rig, as a value-type state machine: which cameras run (hot or cold standby),
/// when a switch takes effect, where recording goes when the active lens's camera is unplugged, what a camera
/// plugged in mid-clip does (`on_attach`), and when a lost picture gives way to the "no signal" slate.
///
/// It knows lens names only, never a camera: the `RigController` feeds it events (commands, frames, plugs, ticks)
/// and performs the actions it returns (start or stop a camera, switch the frame router, hold, slate). So every rule
/// is tested as a table without devices (`LensBankTests`).
///
/// The rule that keeps the movie free of holes: a switch takes effect at once only to a lens that already delivers
/// frames (hot). A switch to a lens whose camera has not delivered yet (cold standby, a camera just plugged in, the
/// fallback after an unplug) is *pending* until that lens's first frame at or after the request; until then the old
/// lens keeps filling the movie, or, when no lens delivers, the last picture is held for `rig.hold` and then the
/// slate fills the slots until a lens delivers again.
public struct LensBank: Sendable, Equatable {
    /// Who fills the movie's slots now.
    public enum State: Sendable, Equatable {
        /// `lens` is active and fills the slots.
        case live(lens: String)
        /// A switch to `to`, asked at `requested`, waits for `to`'s first frame; `from` keeps filling the slots.
        case switching(from: String, to: String, requested: MediaTime)
        /// No lens delivers: `lens` was lost at `since` (its last frame's capture time); its last picture is held
        /// until `slateAt`, then the slate shows (`slated`). `waitingFor` is the lens started to take over, if any:
        /// its first frame ends the loss.
        case lost(lens: String, since: MediaTime, slateAt: MediaTime, slated: Bool, waitingFor: String?)
    }

    /// What happened, as the controller saw it (times on the session clock).
    public enum Event: Sendable, Equatable {
        /// The rig starts its devices.
        case startDevices
        /// `lens NAME` or a zoom preset on another lens, given at `time`; `recording` while a clip records or is
        /// paused (with no clip, nothing waits for frames and the old camera closes at once).
        case select(lens: String, at: MediaTime, recording: Bool)
        /// A frame of `lens` captured at `pts` arrived.
        case frame(lens: String, pts: MediaTime)
        /// A camera for `lens` was plugged in at `time` (it replaces any camera the lens had).
        case attached(lens: String, at: MediaTime)
        /// The camera of `lens` went away at `time` (unplugged, ended by itself).
        case detached(lens: String, at: MediaTime)
        /// Starting the camera of `lens` failed (the controller tried a `startCamera` action).
        case startFailed(lens: String, at: MediaTime)
        /// The camera of `lens` could not start for lack of USB bandwidth, and the controller stops `stopped` (the
        /// victim `bandwidthVictim` chose) to make room: `stopped` is cold from now on and `lens` starts once more.
        case stoppedForBandwidth(lens: String, stopped: String)
        /// A clip starts recording, or resumes, at `time`: a lens is watched for stalls from here.
        case recordingStarted(at: MediaTime)
        /// Time passes (the controller ticks every 100 ms while recording): stalls and slates are decided.
        case tick(now: MediaTime)
    }

    /// What the controller must do, in order.
    public enum Action: Sendable, Equatable {
        /// Open the camera of this lens and stream its frames.
        case startCamera(String)
        /// Close the camera of this lens.
        case stopCamera(String)
        /// Route `lens`'s frames from `effective` on (the frame router and the sidecar); the user asked at
        /// `requested`.
        case switchLens(to: String, requested: MediaTime, effective: MediaTime)
        /// No lens delivers: the movie holds `lens`'s last picture, captured at `since`.
        case hold(lens: String, since: MediaTime)
        /// The hold is over: the "no signal" slate for `lens` (lost at `lostAt`) fills the slots from `at`.
        case slate(lens: String, lostAt: MediaTime, at: MediaTime)
        /// Tell the user.
        case notify(EngineEvent)
        /// The command cannot be carried out; nothing changed. The message says why.
        case reject(String)
    }

    /// How long the active lens may send nothing (while recording) before its picture counts as lost, not slow.
    /// Far above a slow lens's frame interval (5 fps is 200 ms); the same margin `RigController.holdAfter` waits.
    public static let stallAfter = MediaTime.milliseconds(500)

    /// The lens chosen most recently: what `status` shows, the target of a pending switch.
    public private(set) var activeLens: String
    public private(set) var state: State
    /// Lenses that have a camera now.
    public private(set) var withCamera: Set<String>
    /// Lenses whose camera was started (and has not stopped since).
    public private(set) var running: Set<String> = []
    /// Running lenses whose camera has delivered a frame since it started: a switch to one of them is instant.
    public private(set) var delivering: Set<String> = []
    /// Hot lenses whose camera was stopped to make USB bandwidth for another (`stoppedForBandwidth`): cold from
    /// then on, for the rest of the run, so they never take the bandwidth back while another lens needs it.
    public private(set) var stoppedForBandwidth: Set<String> = []
    /// Lenses whose start is being tried again after another lens was stopped for them: a second refusal is final.
    private var retryingForBandwidth: Set<String> = []
    /// The capture time of each lens's newest frame.
    private var lastFrame: [String: MediaTime] = [:]
    /// Stalls are judged from here on (a clip's start or resume), not from frames seen while no clip recorded.
    private var watchedSince: MediaTime?
    /// The rig's lenses in file order, with their zoom (the fallback picks the nearest).
    private let lenses: [Lens]
    private let standby: Rig.Standby
    /// With `standby: auto`, the lenses that stay cold (`Rig.autoColdLenses`).
    private let autoColdLenses: Set<String>
    private let onAttach: Rig.AttachPolicy
    private let hold: MediaTime

    /// A bank for `rig` whose lenses with a camera are `withCamera`.
    public init(rig: Rig, withCamera: Set<String>) {
        activeLens = rig.defaultLens
        state = .live(lens: rig.defaultLens)
        self.withCamera = withCamera
        lenses = rig.lenses.map { Lens(name: $0.name, zoom: $0.zoom) }
        standby = rig.standby
        autoColdLenses = rig.autoColdLenses
        onAttach = rig.onAttach
        hold = rig.hold
    }

    /// A lens as the bank needs it: its role name and optical zoom.
    private struct Lens: Sendable, Equatable {
        var name: String
        var zoom: Double
    }

    /// The lens whose frames fill the slots now, if any.
    public var showing: String? {
        switch state {
        case .live(let lens): return lens
        case .switching(let from, _, _): return from
        case .lost: return nil
        }
    }

    /// Applies `event`; returns what the controller must do.
    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .startDevices:
            return lenses.map(\.name).filter { isHot($0) || $0 == activeLens }.flatMap { start($0) }
        case .select(let lens, let time, let recording):
            return select(lens, at: time, recording: recording)
        case .frame(let lens, let pts):
            return frame(of: lens, at: pts)
        case .attached(let lens, let time):
            return attached(lens, at: time)
        case .detached(let lens, let time):
            return detached(lens, at: time)
        case .startFailed(let lens, let time):
            return startFailed(lens, at: time)
        case .stoppedForBandwidth(let lens, let stopped):
            running.remove(stopped)
            delivering.remove(stopped)
            stoppedForBandwidth.insert(stopped)
            retryingForBandwidth.insert(lens)
            return [.stopCamera(stopped), .startCamera(lens)]
        case .recordingStarted(let time):
            watchedSince = time
            guard case .lost(let lens, let since, _, _, let waiting) = state else { return [] }
            if let waiting, running.contains(waiting) {
                // A lens is starting: the new segment begins with its first frame. Should it never deliver, the
                // hold runs from here.
                state = .lost(lens: lens, since: time, slateAt: time + hold, slated: false, waitingFor: waiting)
                return []
            }
            // No lens can deliver: the new segment's frame grid cannot reach the held picture; it opens on the slate.
            state = .lost(lens: lens, since: since, slateAt: time, slated: true, waitingFor: waiting)
            return [.slate(lens: lens, lostAt: since, at: time)]
        case .tick(let now):
            return tick(now)
        }
    }

    // MARK: Events

    private mutating func select(_ lens: String, at time: MediaTime, recording: Bool) -> [Action] {
        guard withCamera.contains(lens) else {
            return [.reject("lens \(lens) has no camera right now; recording stays on \(activeLens)")]
        }
        var actions = start(lens)
        guard running.contains(lens) else { return actions }
        let previous = activeLens
        activeLens = lens
        if !recording {
            // No clip: nothing waits for frames, so the switch is instant and cold cameras close at once.
            state = .live(lens: lens)
            if lens != previous { actions.append(.switchLens(to: lens, requested: time, effective: time)) }
            return actions + stopColdCameras(keeping: [lens])
        }
        switch state {
        case .live(let current) where current == lens:
            return actions
        case .switching(_, let to, _) where to == lens:
            // Asked again while pending: the first request's time stands.
            return actions
        case .switching(let from, _, _) where from == lens:
            // Back to the lens still showing: the pending switch is dropped.
            state = .live(lens: lens)
            return actions + stopColdCameras(keeping: [lens])
        case .lost(let lost, let since, let slateAt, let slated, _):
            if delivering.contains(lens) {
                state = .live(lens: lens)
                return actions + [.switchLens(to: lens, requested: time, effective: time)]
            }
            state = .lost(lens: lost, since: since, slateAt: slateAt, slated: slated, waitingFor: lens)
            return actions
        case .live(let from), .switching(let from, _, _):
            if delivering.contains(lens) {
                state = .live(lens: lens)
                return actions + [.switchLens(to: lens, requested: time, effective: time)]
                    + stopColdCameras(keeping: [lens])
            }
            state = .switching(from: from, to: lens, requested: time)
            return actions + stopColdCameras(keeping: [from, lens])
        }
    }

    private mutating func frame(of lens: String, at pts: MediaTime) -> [Action] {
        guard running.contains(lens) else { return [] }
        delivering.insert(lens)
        retryingForBandwidth.remove(lens)
        if lastFrame[lens].map({ pts > $0 }) ?? true { lastFrame[lens] = pts }
        switch state {
        case .live(let current):
            return lens == current && running.count > 1 ? stopColdCameras(keeping: [lens]) : []
        case .switching(_, let to, let requested):
            guard lens == to, pts >= requested else { return [] }
            state = .live(lens: lens)
            return [.switchLens(to: lens, requested: requested, effective: pts)] + stopColdCameras(keeping: [lens])
        case .lost(let lost, let since, _, _, let waiting):
            // The lost lens's own frames must be newer than its last one; another lens's may start right at it.
            guard lens == waiting || (waiting == nil && lens == lost), lens == lost ? pts > since : pts >= since
            else { return [] }
            state = .live(lens: lens)
            activeLens = lens
            // The lost lens back (a stall over, its camera replugged) is no switch: the router still has it; its
            // all-clear is told, as its holding was.
            let switching: [Action] = lens == lost ? [.notify(.lensBack(lens: lens))]
                : [.switchLens(to: lens, requested: since, effective: pts)]
            return switching + stopColdCameras(keeping: [lens])
        }
    }

    private mutating func attached(_ lens: String, at time: MediaTime) -> [Action] {
        guard lenses.contains(where: { $0.name == lens }) else { return [] }
        withCamera.insert(lens)
        // The new camera replaces the old one (the controller stopped it): it has delivered nothing yet.
        running.remove(lens)
        delivering.remove(lens)
        let becomesActive = onAttach == .switch || lens == activeLens
        guard isHot(lens) || becomesActive else { return [] }
        var actions = start(lens)
        guard running.contains(lens) else { return actions }
        if onAttach == .switch && lens != activeLens {
            actions += select(lens, at: time, recording: true)
            actions.append(.notify(.lensSwitched(lens: lens)))
        } else if lens == activeLens {
            switch state {
            case .lost(let lost, let since, let slateAt, let slated, _):
                state = .lost(lens: lost, since: since, slateAt: slateAt, slated: slated, waitingFor: lens)
            case .live(let current) where current == lens:
                // The active lens's camera was replaced while it showed: the new one's first frame takes over.
                state = .lost(lens: lens, since: lastFrame[lens] ?? time, slateAt: (lastFrame[lens] ?? time) + hold,
                              slated: false, waitingFor: lens)
            default:
                break
            }
        }
        return actions
    }

    private mutating func detached(_ lens: String, at time: MediaTime) -> [Action] {
        withCamera.remove(lens)
        running.remove(lens)
        delivering.remove(lens)
        switch state {
        case .live(let current) where current == lens:
            return fallBack(from: lens, at: time, since: lastFrame[lens] ?? time)
        case .switching(let from, let to, _) where from == lens:
            // The old lens went while the new one was starting: hold until the new one's first frame.
            let since = lastFrame[lens] ?? time
            state = .lost(lens: lens, since: since, slateAt: since + hold, slated: false, waitingFor: to)
            return [.hold(lens: lens, since: since)]
        case .switching(let from, let to, _) where to == lens:
            state = .live(lens: from)
            activeLens = from
            return [.notify(.lensLostBeforeFirstFrame(lens: lens, stayingOn: from))]
        case .lost(let lost, let since, let slateAt, let slated, let waiting) where waiting == lens:
            state = .lost(lens: lost, since: since, slateAt: slateAt, slated: slated, waitingFor: nil)
            return fallBack(from: lost, at: time, since: since, alreadyLost: true)
        default:
            return []
        }
    }

    private mutating func startFailed(_ lens: String, at time: MediaTime) -> [Action] {
        running.remove(lens)
        delivering.remove(lens)
        retryingForBandwidth.remove(lens)
        switch state {
        case .switching(let from, let to, _) where to == lens:
            state = .live(lens: from)
            activeLens = from
            return [.reject("lens \(lens) has no camera right now; recording stays on \(from)")]
        case .lost(let lost, let since, let slateAt, let slated, let waiting) where waiting == lens:
            state = .lost(lens: lost, since: since, slateAt: slateAt, slated: slated, waitingFor: nil)
            return fallBack(from: lost, at: time, since: since, alreadyLost: true, excluding: [lens])
        default:
            if activeLens == lens, case .live(let current) = state, current != lens { activeLens = current }
            return []
        }
    }

    private mutating func tick(_ now: MediaTime) -> [Action] {
        switch state {
        case .live(let lens), .switching(let lens, _, _):
            // A camera that stopped delivering without going away (a stall) loses the picture like an unplug. One
            // that has not delivered since it started is starting (a real camera can take a second): the clip
            // begins with its first frame.
            guard let watched = watchedSince, delivering.contains(lens) else { return [] }
            let last = max(lastFrame[lens] ?? watched, watched)
            guard now - last > Self.stallAfter else { return [] }
            let waiting: String? = if case .switching(_, let to, _) = state { to } else { lens }
            state = .lost(lens: lens, since: last, slateAt: last + hold, slated: false, waitingFor: waiting)
            activeLens = waiting ?? lens
            return [.hold(lens: lens, since: last), .notify(.lensHolding(lens: lens))]
        case .lost(let lens, let since, let slateAt, let slated, let waiting):
            guard !slated, slateAt <= now else { return [] }
            state = .lost(lens: lens, since: since, slateAt: slateAt, slated: true, waitingFor: waiting)
            return [.slate(lens: lens, lostAt: since, at: slateAt)]
        }
    }

    // MARK: Policy

    /// The lens whose camera to stop so that `lens`'s camera, refused by its USB bus for lack of bandwidth, can
    /// start: the first of `sharingBus` (the other lenses on that bus, in rig order) that streams hot and is not
    /// the lens the movie shows. Only for the lens the rig is switching to (`activeLens`: a switch, a fallback),
    /// and once per start: `nil` when a retry was already made, or when nothing on the bus can be spared (the start
    /// then fails as any other).
    public func bandwidthVictim(for lens: String, sharingBus: [String]) -> String? {
        guard lens == activeLens, running.contains(lens), !retryingForBandwidth.contains(lens) else { return nil }
        return sharingBus.first { other in
            other != lens && other != showing && running.contains(other) && isHot(other)
        }
    }

    /// The active lens `lens` is gone: switch to the lens nearest in zoom that has a camera (instantly when it
    /// delivers, else pending on its first frame, holding the picture meanwhile); with none, hold then slate.
    private mutating func fallBack(from lens: String, at time: MediaTime, since: MediaTime, alreadyLost: Bool = false,
                                   excluding: Set<String> = []) -> [Action] {
        let zoom = lenses.first { $0.name == lens }?.zoom ?? 1
        let candidates = lenses.filter { $0.name != lens && withCamera.contains($0.name) && !excluding.contains($0.name) }
            .sorted { abs($0.zoom - zoom) < abs($1.zoom - zoom) }
        var kept: (since: MediaTime, slateAt: MediaTime, slated: Bool) = (since, since + hold, false)
        if alreadyLost, case .lost(_, let lostSince, let slateAt, let slated, _) = state {
            kept = (lostSince, slateAt, slated)
        }
        func lostState(_ waiting: String?) -> State {
            .lost(lens: lens, since: kept.since, slateAt: kept.slateAt, slated: kept.slated, waitingFor: waiting)
        }
        for fallback in candidates {
            if delivering.contains(fallback.name) {
                state = .live(lens: fallback.name)
                activeLens = fallback.name
                return [.switchLens(to: fallback.name, requested: time, effective: time),
                        .notify(.lensSwitched(lens: fallback.name))]
            }
            let started = start(fallback.name)
            guard running.contains(fallback.name) else { continue }
            state = lostState(fallback.name)
            activeLens = fallback.name
            return started + (alreadyLost ? [] : [.hold(lens: lens, since: since)])
                + [.notify(.lensSwitched(lens: fallback.name))]
        }
        state = lostState(nil)
        return (alreadyLost ? [] : [.hold(lens: lens, since: since)])
            + [.notify(.noCameraLeft)]
    }

    /// Starts `lens`'s camera if it has one and it is not running; the controller reports a failure back.
    private mutating func start(_ lens: String) -> [Action] {
        guard withCamera.contains(lens), !running.contains(lens) else { return [] }
        running.insert(lens)
        delivering.remove(lens)
        retryingForBandwidth.remove(lens)
        return [.startCamera(lens)]
    }

    /// Whether `lens`'s camera streams all the time: every lens with `standby: hot`, none with `cold`, those not in
    /// `autoColdLenses` with `auto`; never one stopped to make USB bandwidth (`stoppedForBandwidth`).
    private func isHot(_ lens: String) -> Bool {
        guard !stoppedForBandwidth.contains(lens) else { return false }
        switch standby {
        case .hot: return true
        case .cold: return false
        case .auto: return !autoColdLenses.contains(lens)
        }
    }

    /// Closes every running cold camera (`standby: cold`, a cold lens with `auto`, a lens stopped for bandwidth)
    /// but `keep`.
    private mutating func stopColdCameras(keeping keep: Set<String>) -> [Action] {
        guard standby != .hot || !stoppedForBandwidth.isEmpty else { return [] }
        let stopping = lenses.map(\.name).filter { running.contains($0) && !keep.contains($0) && !isHot($0) }
        for lens in stopping {
            running.remove(lens)
            delivering.remove(lens)
        }
        return stopping.map { .stopCamera($0) }
    }
}
