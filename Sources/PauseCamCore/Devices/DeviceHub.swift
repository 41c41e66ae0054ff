import Foundation

/// The rig's devices while it runs: the camera serving each lens role, the microphone, their mailboxes, and every
/// way a device comes and goes (a start that fails, a device that ends by itself, a udev plug or unplug).
///
/// The hub starts and stops devices when told (by `RigController`, as the `LensBank` asks) and reports what
/// happens as `Report` values; it knows nothing of clips, lenses being live or commands. Samples come in one way:
/// each device posts to its own bounded `Mailbox`, and a drain on the serial context reports them in order. A busy
/// context therefore costs dropped (and counted) old samples, never unbounded memory; a drain is scheduled once per
/// batch, not once per sample. Device starts and stops run in order on the device worker, so the serial context
/// never waits for STREAMON or a capture thread's join.
///
/// The hot-plug bookkeeping lives here too (the device node serving each lens, the sound card of the microphone,
/// whether the rig has stopped): `handle(_:)` takes a watcher's `DeviceEvent` or `SoundCardEvent` from any thread,
/// and a `DeviceOpening` (V4L2 and ALSA in the program, a fake in tests) opens what was plugged in.
/// Unchecked Sendable: confined to the serial context; the only members used off it are the `let`s that
/// `handle(_:)` reads on a watcher's thread (`rig`, `opener`, `serialContext`) and `waitForDevices()`.
public final class DeviceHub: @unchecked Sendable {
    /// What the hub tells its owner, on the serial context, in the order it happened.
    public enum Report {
        /// A frame from a lens's mailbox.
        case frame(VideoFrame)
        /// Sound from the microphone's mailbox.
        case chunk(AudioChunk)
        /// Samples a device's mailbox dropped because the context did not drain it in time (may be zero).
        case mailboxDrops(device: String, count: Int)
        /// A camera now serves `lens` (plugged in); the one it replaced, if any, is being stopped.
        case cameraAttached(lens: String, camera: String)
        /// The camera of `lens` is gone (unplugged, or it ended by itself) and forgotten.
        case cameraLost(lens: String, reason: String)
        /// The camera of `lens` could not start; the lens has no running camera. `outOfBandwidth` when its USB bus
        /// refused the stream for lack of bandwidth (`CameraStartFailure.isBandwidthExhausted`).
        case cameraFailedToStart(lens: String, camera: String, reason: String, outOfBandwidth: Bool)
        /// The microphone could not start: the rig records without sound until one is plugged in.
        case microphoneFailedToStart(microphone: String, reason: String)
        /// The microphone ended (unplugged); its next chunk means it is back (`microphoneReturned()`).
        case microphoneEnded(reason: String)
        /// Sound from the mailbox of the rig's voice card `card` (`VoiceCardPlan`).
        case voiceChunk(card: Int, AudioChunk)
        /// Voice card `card` ended (unplugged): its voices are silence until its sound comes back.
        case voiceCardEnded(card: Int, reason: String)
        /// Voice card `card` could not start.
        case voiceCardFailedToStart(card: Int, microphone: String, reason: String)
        /// A device's note for the sidecar of the clip recording now (dropped when none is).
        case clipWarning(String)
        /// After `lens`'s camera started, it does not hold a setting PauseCam applied (read back at once).
        case settingNotHeld(lens: String, camera: String, mismatch: LensCameraSettings.Mismatch)
    }

    /// What the clip recording now needs of a microphone plugged in mid-clip.
    public enum ClipSound: Equatable {
        /// No clip records or is paused: any microphone is taken.
        case noClip
        /// A clip records (or is paused) with this sound format, or without a sound track (`nil`).
        case clip(MovieSettings.AudioSettings?)
    }

    /// Why a re-plugged microphone was not taken.
    public enum MicrophoneRefusal: Error, Equatable, CustomStringConvertible {
        /// The rig's microphone still runs: a second card matching the rule, or an add seen before the remove.
        case stillRunning(current: String, offered: String)
        /// The clip's sound track was opened for another sample rate or channel count; the movie's audio format
        /// cannot change mid-clip.
        case formatChanged(offered: String, rate: Int32, channels: Int, clipRate: Int32, clipChannels: Int)

        public var description: String {
            switch self {
            case .stillRunning(let current, let offered):
                return "microphone \(offered) was plugged in but not used: \(current) still records"
            case .formatChanged(let offered, let rate, let channels, let clipRate, let clipChannels):
                return "microphone \(offered) was plugged in but not used: it records \(rate) Hz \(channels) ch, "
                    + "and this clip's sound is \(clipRate) Hz \(clipChannels) ch (a clip cannot change its audio "
                    + "format); plug it in again between clips to record with it"
            }
        }
    }

    /// Frames a camera's mailbox holds at least: a few, enough to ride out a busy moment of the context.
    public static let videoMailboxCapacity = 4
    /// The memory one camera's waiting frames may take (counted as uncompressed YUYV at the lens's size, the
    /// largest a frame gets): 1080p gets 12 frames, a small camera up to a second of its frames.
    public static let videoMailboxBytes = 48 << 20
    /// Role of the microphone in the sidecar's devices and in drop counts.
    public static let microphoneRole = "microphone"

    public let rig: Rig
    let serialContext: any SerialContext
    /// The camera serving each lens role now; a role without one has no camera (unplugged, or never found).
    public internal(set) var cameras: [String: any Camera]
    /// The microphone serving the rig now; replaced when a re-plugged one is attached (`attachMicrophone`).
    public private(set) var microphone: (any Microphone)?
    /// The microphone ended by itself (unplugged); its next chunk means it is back.
    public private(set) var microphoneGone = false
    /// The microphone whose end was already told (by ALSA or by a udev remove): its other report is not repeated.
    private var endedMicrophone: ObjectIdentifier?
    /// A rig of voices: the microphone of each card of its `VoiceCardPlan` (`nil`: not found or not opened), and
    /// what the hub keeps of each (`DeviceHub+Voices`). Empty for a rig of one microphone.
    public internal(set) var voiceCards: [VoiceCardSlot] = []
    /// Whether devices' samples are posted to their mailboxes at all: closed while no clip needs them.
    let intake = Gate()
    /// One mailbox per lens role, made when its camera first starts (a device's delivery closure holds its own).
    public private(set) var videoMailboxes: [String: Mailbox<VideoFrame>] = [:]
    /// Where cameras and microphones are started and stopped, in order, off the serial context.
    let deviceWorker: any BackgroundWorker
    /// Where devices offer frames for the live monitor (before the intake gate); `nil` runs without a monitor.
    let monitor: (any MonitorTap)?
    /// Opens plugged-in devices; `nil` when the rig has nothing a watcher reports (virtual and file lenses).
    let opener: (any DeviceOpening)?
    /// The device node serving each real lens: how an unplugged node is traced to its lens, and where a
    /// microphone that belongs to a lens's camera is looked for.
    public internal(set) var lensNodes: [String: String]
    /// The USB bus each camera lens's camera sat on when the rig started ("bus 1 (USB 2.0 high speed, controller
    /// 0000:00:14.0)"), as the bandwidth plan counts it: the lenses that share a bus share its periodic budget,
    /// so stopping one can make room for another (`lenses(sharingBusWith:)`). A lens not on USB is absent.
    public var lensBuses: [String: String]
    /// The sound card the microphone records from: its `remove` stops the microphone.
    public internal(set) var microphoneCard: MicrophoneIdentity?
    /// Set by `stopDevices()`: a device opened after it (a microphone still opening) is dropped, not started.
    public private(set) var devicesStopped = false
    /// Engine events the hub tells itself (a microphone attached or refused, a plugged device that cannot open).
    let notify: (EngineEvent) -> Void
    /// The settings each lens's camera gets back after every start (the rig's `controls:`, the session's exposure,
    /// focus and PTZ position).
    public internal(set) var lensSettings: [String: LensCameraSettings]
    /// Frames delivered per lens, counted on the capture threads: what the freeze watchdog looks at.
    var frameCounters: [String: FrameCounter] = [:]
    /// The freeze watchdog of each lens whose camera was started, with the generation its checks belong to.
    var watchdogs: [String: WatchedStream] = [:]
    /// The PTZ position waiting for each lens's camera on the device worker (`DeviceHub+PTZ`).
    var ptzSlots: [String: PTZCommandSlot] = [:]
    /// The last PTZ failure told per lens, so a ramp on a refusing camera says it once, not once a frame.
    var ptzFailures: [String: String] = [:]
    /// Where reports go; the owner sets it once, before the devices start.
    public var report: (Report) -> Void = { _ in }
    /// The clip's needs of a microphone plugged in now; the owner sets it (no clip, by default).
    public var clipSound: () -> ClipSound = { .noClip }

    /// A hub for `rig` whose roles are served by `cameras` (found at `lensNodes`) and whose sound comes from
    /// `microphone` (on `microphoneCard`). `devices` starts and stops them in order (a `SerialQueueWorker` in the
    /// program; inline on the simulated clock, whose virtual lenses read the clock as they start).
    public init(rig: Rig, cameras: [String: any Camera], microphone: (any Microphone)?,
                serialContext: any SerialContext, devices: any BackgroundWorker, monitor: (any MonitorTap)? = nil,
                opener: (any DeviceOpening)? = nil, lensNodes: [String: String] = [:],
                lensBuses: [String: String] = [:], microphoneCard: MicrophoneIdentity? = nil,
                voiceMicrophones: [(any Microphone)?] = [], voiceCardIdentities: [MicrophoneIdentity?] = [],
                notify: @escaping (EngineEvent) -> Void) {
        self.rig = rig
        self.cameras = cameras
        self.microphone = microphone
        self.serialContext = serialContext
        deviceWorker = devices
        self.monitor = monitor
        self.opener = opener
        self.lensNodes = lensNodes
        self.lensBuses = lensBuses
        self.microphoneCard = microphoneCard
        voiceCards = voiceMicrophones.indices.map {
            VoiceCardSlot(microphone: voiceMicrophones[$0],
                          card: voiceCardIdentities.indices.contains($0) ? voiceCardIdentities[$0] : nil)
        }
        self.notify = notify
        lensSettings = Dictionary(uniqueKeysWithValues: rig.lenses.map { ($0.name, LensCameraSettings(controls: $0.controls)) })
    }

    /// The frames `lens`'s mailbox holds: as many as fit in `videoMailboxBytes`, at least `videoMailboxCapacity`,
    /// at most one second of the lens's frames. Why a second for small cameras: the context can be busy for that
    /// long at a clip's start (x264 opening on a slow machine), and the frames captured meanwhile start the movie.
    static func videoMailboxCapacity(for lens: Rig.Lens?, output: Rig.OutputSettings) -> Int {
        let width = lens?.width ?? output.width, height = lens?.height ?? output.height
        let rate = lens?.rate ?? output.rate
        let oneSecond = max(videoMailboxCapacity, Int(rate.framesPerSecond.rounded(.up)))
        let fitting = videoMailboxBytes / max(1, width * height * 2)
        return min(oneSecond, max(videoMailboxCapacity, fitting))
    }

    // MARK: Intake

    /// Whether samples are posted to the mailboxes: opened when a clip starts (before its sink opens, so the
    /// frames captured meanwhile belong to it), closed when it ends.
    public var isTakingSamples: Bool {
        get { intake.isOpen }
        set { intake.isOpen = newValue }
    }

    // MARK: Cameras

    /// Starts the camera of `lens` on the device worker; returns false when the lens has no camera. A failure
    /// comes back to the context as `Report.cameraFailedToStart`. On the serial context: called by the owner's
    /// entry points (which check it), never on its own.
    public func startCamera(lens name: String) -> Bool {
        guard let camera = cameras[name] else { return false }
        startOnDeviceWorker(camera, lens: name) { hub, failure in
            // A camera that did not start is not watched: the bank decides what the lens does now.
            if let current = hub.cameras[name], current === camera { hub.unwatchStream(lens: name) }
            hub.report(.cameraFailedToStart(lens: name, camera: camera.displayName, reason: failure.reason,
                                            outOfBandwidth: failure.outOfBandwidth))
        }
        watchStream(lens: name)
        return true
    }

    /// Starts `camera` for `lens` on the device worker (stopping it first when `stoppingFirst`); back on the
    /// serial context, a start goes to `cameraStarted` (settings restored) and a failure to `failed` with the
    /// error's text and kind. The one way a camera is started, by the lens policy and by the watchdog alike.
    func startOnDeviceWorker(_ camera: any Camera, lens name: String, stoppingFirst: Bool = false,
                             failed: @escaping @Sendable (DeviceHub, StartFailure) -> Void) {
        let deliver = delivery(lens: name), onEnd = ending(lens: name, camera: camera)
        deviceWorker.submit { [weak self, serialContext] in
            if stoppingFirst { camera.stop() }
            do {
                try camera.start(deliver: deliver, onEnd: onEnd)
                serialContext.schedule(at: .zero) { [weak self] in self?.cameraStarted(camera, lens: name) }
            } catch {
                let failure = StartFailure(reason: "\(error)",
                                           outOfBandwidth: (error as? any CameraStartFailure)?.isBandwidthExhausted == true)
                serialContext.schedule(at: .zero) { [weak self] in
                    if let self { failed(self, failure) }
                }
            }
        }
    }

    /// Why a camera did not start, as the serial context gets it from the device worker.
    struct StartFailure: Sendable {
        /// The error's text, for people.
        var reason: String
        /// The camera's USB bus had no bandwidth left for the stream.
        var outOfBandwidth: Bool
    }

    /// The other camera lenses on `lens`'s USB bus (`lensBuses`), in rig order; empty for a lens not on USB.
    public func lenses(sharingBusWith lens: String) -> [String] {
        guard let bus = lensBuses[lens] else { return [] }
        return rig.lenses.map(\.name).filter { $0 != lens && lensBuses[$0] == bus }
    }

    /// Where the cameras of `lens` deliver: the frame counter (the watchdog's evidence), the monitor, and the
    /// lens's mailbox while the intake is open. The same for every camera the lens gets (restarts, re-plugs).
    func delivery(lens name: String) -> @Sendable (VideoFrame) -> Void {
        let mailbox = videoMailboxes[name] ?? Mailbox<VideoFrame>(
            capacity: Self.videoMailboxCapacity(for: rig.lens(named: name), output: rig.output))
        videoMailboxes[name] = mailbox
        let counter = frameCounters[name] ?? FrameCounter()
        frameCounters[name] = counter
        let orientation = rig.lens(named: name)?.orientation ?? .upright
        return { [weak self, serialContext, intake, monitor] delivered in
            counter.add()
            // The lens's orientation travels with each frame; whoever draws it (movie, thumbnail, monitor) turns it.
            var frame = delivered
            frame.orientation = orientation
            // The monitor before the gate: it shows every lens while idle too (framing before recording).
            if let monitor, monitor.isWatched { monitor.offer(frame) }
            guard intake.isOpen, mailbox.post(frame) else { return }
            serialContext.schedule(at: .zero) { [weak self] in self?.drainVideo(mailbox, lens: name) }
        }
    }

    /// What `camera` calls when it ends by itself while serving `lens`.
    func ending(lens name: String, camera: any Camera) -> @Sendable (String) -> Void {
        { [weak self, serialContext] reason in
            serialContext.schedule(at: .zero) { [weak self] in self?.cameraEnded(lens: name, camera: camera, reason: reason) }
        }
    }

    /// Stops the camera of `lens`, if it has one, on the device worker (after any start queued before it).
    public func stopCamera(lens name: String) {
        unwatchStream(lens: name)
        stop(cameras[name])
    }

    private func stop(_ camera: (any Camera)?) {
        guard let camera else { return }
        deviceWorker.submit { camera.stop() }
    }

    /// A camera for `lens` appeared (plugged in): it serves the lens from now on, replacing (and stopping) any
    /// camera the lens had. A role the rig does not have is ignored.
    public func attach(_ camera: any Camera, lens name: String) {
        serialContext.assertOnSerialContext()
        guard rig.lens(named: name) != nil else { return }
        if let old = cameras[name], old !== camera {
            unwatchStream(lens: name)
            stop(old)
        }
        cameras[name] = camera
        report(.cameraAttached(lens: name, camera: camera.displayName))
    }

    /// The camera of `lens` went away (a udev remove): it is stopped and forgotten.
    public func detach(lens name: String, reason: String) {
        serialContext.assertOnSerialContext()
        guard let camera = cameras[name] else { return }
        stop(camera)
        cameraEnded(lens: name, camera: camera, reason: reason)
    }

    /// A lens's camera ended by itself (unplugged): forgotten and reported. A camera that was already replaced
    /// (re-plugged) ends late and changes nothing.
    public func cameraEnded(lens: String, camera: any Camera, reason: String) {
        serialContext.assertOnSerialContext()
        guard let current = cameras[lens], current === camera else { return }
        unwatchStream(lens: lens)
        cameras[lens] = nil
        report(.cameraLost(lens: lens, reason: reason))
    }

    // MARK: Every device

    /// Starts the microphone (the cameras are started one by one as the lens bank asks). On the serial context:
    /// called by the owner's `startDevices` (which checks it).
    public func startMicrophone() {
        for card in voiceCards.indices { startVoiceCard(card) }
        guard let microphone else { return }
        start(microphone)
    }

    /// Stops every device (the cameras on the device worker, after any start queued there) and drops any device
    /// still being opened from now on; idempotent. Off the context, `waitForDevices` then waits for the stops.
    public func stopDevices() {
        serialContext.assertOnSerialContext()
        devicesStopped = true
        for lens in cameras.keys { unwatchStream(lens: lens) }
        for camera in cameras.values { stop(camera) }
        microphone?.stop()
        for slot in voiceCards { slot.microphone?.stop() }
    }

    /// Waits until every start and stop handed to the device worker so far has run; call it off the serial context.
    public func waitForDevices() {
        let done = DispatchSemaphore(value: 0)
        deviceWorker.submit { done.signal() }
        done.wait()
    }

    // MARK: Mailboxes

    /// Everything a camera's mailbox holds, in order, after its drop count.
    private func drainVideo(_ mailbox: Mailbox<VideoFrame>, lens: String) {
        let drained = mailbox.drain()
        report(.mailboxDrops(device: lens, count: drained.dropped))
        for frame in drained.items { report(.frame(frame)) }
    }

    /// Everything the microphone's mailbox holds, in order, after its drop count.
    private func drainAudio(_ mailbox: Mailbox<AudioChunk>) {
        let drained = mailbox.drain()
        report(.mailboxDrops(device: Self.microphoneRole, count: drained.dropped))
        for chunk in drained.items { report(.chunk(chunk)) }
    }

    // MARK: Microphone

    /// Starts `microphone` with a fresh mailbox. Its end is heard only while it is still the rig's microphone and
    /// only once: one that was replaced (re-plugged), or whose removal udev already reported, changes nothing.
    private func start(_ microphone: any Microphone) {
        // Three seconds of audio wait at most, counted in sample frames (about 1 MB of stereo floats). More than
        // a camera's second: a lost video frame is covered by the picture before it, lost sound is a hole, and a
        // hot-plug on a slow machine can keep the context busy for over a second.
        let mailbox = Mailbox<AudioChunk>(capacity: 3 * Int(microphone.sampleRate), weight: { $0.frameCount })
        do {
            // `weak`: a device's thread may deliver after the hub is gone (a rig torn down mid-stream).
            try microphone.start(deliver: { [weak self, serialContext, intake] chunk in
                guard intake.isOpen, mailbox.post(chunk) else { return }
                serialContext.schedule(at: .zero) { [weak self] in self?.drainAudio(mailbox) }
            }, onEnd: { [weak self, serialContext, identity = ObjectIdentifier(microphone)] reason in
                serialContext.schedule(at: .zero) { [weak self] in
                    guard let self, self.microphone.map(ObjectIdentifier.init) == identity,
                          self.endedMicrophone != identity else { return }
                    self.endedMicrophone = identity
                    self.microphoneEnded(reason: reason)
                }
            })
        } catch {
            report(.microphoneFailedToStart(microphone: microphone.displayName, reason: "\(error)"))
        }
    }

    /// A microphone plugged (back) in: replaces the rig's microphone if that one has ended or never was, and
    /// starts it with a fresh mailbox; its first chunk means it is back (`microphoneReturned()`). Refused — said,
    /// noted in the clip, and the offered microphone left unstarted for the caller to drop — while the current
    /// microphone still runs, or when a clip is recording sound in another format (the encoder could resample, but
    /// the declicker, level meter and drift corrector hold one format per clip). Between clips any format is taken:
    /// `record` opens the movie with the microphone's own format.
    @discardableResult
    public func attachMicrophone(_ replacement: any Microphone) -> Result<Void, MicrophoneRefusal> {
        serialContext.assertOnSerialContext()
        if let current = microphone {
            if current === replacement { return .success(()) }
            if !microphoneGone {
                let refusal = MicrophoneRefusal.stillRunning(current: current.displayName,
                                                             offered: replacement.displayName)
                notify(.warning(.microphoneRefused(refusal), noted: .nowhere))
                return .failure(refusal)
            }
        }
        let clip = clipSound()
        if case .clip(let audio?) = clip,
           audio.sampleRate != replacement.sampleRate || audio.channels != replacement.channels {
            let refusal = MicrophoneRefusal.formatChanged(offered: replacement.displayName,
                                                          rate: replacement.sampleRate,
                                                          channels: replacement.channels,
                                                          clipRate: audio.sampleRate, clipChannels: audio.channels)
            notify(.warning(.microphoneRefused(refusal), noted: .nowhere))
            report(.clipWarning("\(refusal)"))
            return .failure(refusal)
        }
        if let old = microphone { deviceWorker.submit { old.stop() } }
        microphone = replacement
        endedMicrophone = nil
        if case .clip(nil) = clip {
            // A rig that started without its microphone opened this clip without a sound track: nothing resumes.
            microphoneGone = false
            notify(.microphoneAttached(microphone: replacement.displayName, nextClip: true))
        } else {
            // Its first chunk is the "back" event; with no clip, the next clip simply has sound.
            microphoneGone = true
            notify(.microphoneAttached(microphone: replacement.displayName, nextClip: false))
        }
        start(replacement)
        return .success(())
    }

    /// The microphone's card went away (a udev `remove`) before ALSA said so: it is stopped (on the device
    /// worker, which waits for its capture thread) and reported ended. Does nothing when it already ended.
    public func detachMicrophone(reason: String) {
        serialContext.assertOnSerialContext()
        guard let microphone, !microphoneGone else { return }
        endedMicrophone = ObjectIdentifier(microphone)
        deviceWorker.submit { microphone.stop() }
        microphoneEnded(reason: reason)
    }

    private func microphoneEnded(reason: String) {
        microphoneGone = true
        report(.microphoneEnded(reason: reason))
    }

    /// Sound arrived: returns true when the microphone had ended, so this chunk is the first since it came back.
    public func microphoneReturned() -> Bool {
        guard microphoneGone else { return false }
        microphoneGone = false
        return true
    }
}
