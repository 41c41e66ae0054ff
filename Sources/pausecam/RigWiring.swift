import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// Builds a running rig from a rig file's `Rig`: the serialContext (real or simulated clock), a camera per lens, the
/// microphone, the movie writer, and the engine's parts (`DeviceHub`, `ClipController`, `RigController`) joined.
/// The one place that knows every concrete device type; it keeps no engine state of its own (the device nodes
/// and the microphone's card live in the hub, where Core's tests reach them).
/// Unchecked Sendable: `controller` and `runner` are used only on the serial context (ScriptRunner is not Sendable);
/// the two watchers it starts sit behind `Guarded` locks.
final class RigWiring: @unchecked Sendable {
    enum ClockKind: String { case real, simulated }

    let rig: Rig
    let serialContext: any SerialContext
    let controller: RigController
    /// The live monitor's pictures for this run: the controller offers it frames, a monitor's web server reads it
    /// (`MonitorPictures`). It makes nothing until a viewer calls `startWatching`.
    let monitor: MonitorFeed
    let runner: ScriptRunner
    /// This machine as a member of the rig's group (`group:`); `nil` without one.
    let group: GroupMember?
    let outputDirectory: String
    /// Watches for cameras plugged in and out while the rig runs (real lenses only); set by `start()`.
    private let watcher = Guarded<UdevWatcher?>(nil)
    /// Set-up facts (a device watch that could not start, a camera that cannot be opened), told as notices.
    let notify: @Sendable (EngineNotice) -> Void
    /// Watches sound cards plugged in and out while the rig runs (a real microphone on the real clock only); set
    /// by `start()`.
    let soundWatcher = Guarded<UdevSoundWatcher?>(nil)
    /// Whether the rig's microphone is a real ALSA card that a re-plug can bring back.
    let watchesSoundCards: Bool

    /// Wires `rig`; `output` overrides the rig's directory; `events` gets everything the engine does, and the
    /// setup's own facts as `EngineEvent.notice`.
    init(rig: Rig, clock: ClockKind, output: String?, events: @escaping @Sendable (EngineEvent) -> Void) throws {
        let notify: @Sendable (EngineNotice) -> Void = { events(.notice($0)) }
        var rig = rig
        let realLenses = RigSetupPolicy(rig: rig).cameraLenses
        // Where the cameras sit on USB, read once: for `standby: auto` and the hub's bandwidth fallback.
        let described = realLenses.isEmpty ? [] : (try? UdevDeviceManager().describeCameras()) ?? []
        let usbBuses = realLenses.isEmpty ? [] : (try? UdevUSBTopology.buses()) ?? []
        var lensBuses = USBBandwidthCheck.lensBuses(rig: rig, cameras: described, buses: usbBuses)
        if rig.standby == .auto {
            let choices = USBBandwidthCheck.autoStandby(rig: rig, cameras: described, buses: usbBuses)
            rig.autoColdLenses = Set(choices.filter { $0.standby == .cold }.map(\.lens))
            for choice in choices {
                notify(.standbyChosen(lens: choice.lens, standby: choice.standby.rawValue, reason: choice.reason))
            }
        }
        self.notify = notify
        let serialContext: any SerialContext
        switch clock {
        case .real: serialContext = RealTimeSerialContext()
        case .simulated: serialContext = SimulatedSerialContext()
        }
        // The sidecar's `started`/`stopped` and the `{time}` in names are the real wall-clock times of the run on
        // either clock, whatever the simulated clock says: a sidecar claims nothing that did not happen.
        let wallClock: @Sendable () -> Date = { Date() }
        self.serialContext = serialContext
        outputDirectory = RigWiring.expandDirectory(output ?? rig.output.directory)

        var warnings: [String] = []
        var lensNodes: [String: String] = [:]
        var microphoneCard: MicrophoneIdentity?
        // What a device problem means is the policy's (Core); here it is carried out: a notice every clip's sidecar
        // keeps, or the rig refused.
        let policy = RigSetupPolicy(rig: rig)
        func carryOut(_ verdict: RigSetupPolicy.Verdict) throws {
            switch verdict {
            case .goOn(let notice):
                warnings.append(notice.words)
                notify(notice)
            case .refuseUsage(let message): throw UsageError(message)
            case .refuseDevice(let message): throw DeviceError(message)
            }
        }
        if let refusal = policy.cameras(onSimulatedClock: clock == .simulated) { try carryOut(refusal) }
        var cameras: [String: any Camera] = [:]
        if !realLenses.isEmpty {
            let found: [CameraIdentity]
            do {
                found = try UdevDeviceManager().cameras()
            } catch {
                found = []
                try carryOut(policy.camerasNotListed(reason: "\(error)"))
            }
            let matched = try CameraMatcher.match(found, to: rig.lenses)
            for lens in realLenses {
                guard let identity = matched.camera(for: lens.name) else {
                    try carryOut(policy.noCameraMatches(lens))
                    continue
                }
                do {
                    cameras[lens.name] = try RigWiring.openCamera(path: identity.devicePath, lens: lens, rig: rig,
                                                                  notify: notify)
                    lensNodes[lens.name] = identity.devicePath
                } catch {
                    try carryOut(policy.cameraNotOpened(lens, device: identity.devicePath, reason: "\(error)"))
                }
            }
        }
        // Virtual and file lenses run on either clock: both are driven by the serial context.
        for lens in rig.lenses {
            switch lens.source {
            case .virtual(let color):
                cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: lens.width ?? rig.output.width,
                                                 height: lens.height ?? rig.output.height,
                                                 rate: lens.rate ?? rig.output.rate, serialContext: serialContext)
            case .file(let path, let loop):
                do {
                    cameras[lens.name] = try FileLens(path: RigWiring.expandDirectory(path), lens: lens.name,
                                                      loop: loop, serialContext: serialContext)
                } catch {
                    try carryOut(policy.fileLensNotOpened(lens, reason: "\(error)"))
                }
            case .camera:
                break
            }
        }
        if let (bus, lenses) = try RigWiring.faultUSBBus(rig: rig) {
            for lens in lenses {
                cameras[lens] = cameras[lens].map(bus.camera)
                lensBuses[lens] = bus.name
            }
        }

        // The preset is settled once the lenses are known: the ISOs count at the size, rate and format their
        // cameras deliver, and a machine that cannot encode them all refuses the rig before anything is recorded.
        rig = try EncoderPresetSetup.resolve(rig, isos: EncoderLoad(rig: rig, formats: cameras.mapValues(\.format)),
                                             simulated: clock == .simulated, notify: notify)
        self.rig = rig

        var microphone: (any Microphone)?
        var voiceCards: (microphones: [(any Microphone)?], cards: [MicrophoneIdentity?]) = ([], [])
        switch rig.audio.device {
        case .none where !rig.audio.voices.isEmpty:
            watchesSoundCards = clock == .real && rig.audio.voices.contains { $0.source != .virtual }
            voiceCards = try RigWiring.openVoiceCards(rig: rig, simulated: clock == .simulated,
                                                      serialContext: serialContext, lensNodes: lensNodes,
                                                      carryOut: carryOut, notify: notify)
        case .none:
            watchesSoundCards = false
            notify(.videoOnly)
        case .virtual:
            watchesSoundCards = false
            let options = rig.audio.options
            microphone = VirtualMicrophone(serialContext: serialContext, tone: options.toneFrequency,
                                           driftPPM: options.driftPPM, level: options.level)
        case .alsa, .matched, .ofLens:
            watchesSoundCards = clock == .real
            let name = MicrophoneFinder.describe(rig.audio.device)
            if clock == .simulated {
                try carryOut(policy.microphoneOnSimulatedClock(name))
            } else {
                do {
                    let found = try MicrophoneFinder.find(rig.audio.device, lensNodes: lensNodes)
                    microphone = try ALSAMicrophone(pcm: found.pcm, warn: { notify(.deviceRemark($0)) })
                    microphoneCard = found.card
                } catch {
                    try carryOut(policy.microphoneNotOpened(name, reason: "\(error)"))
                }
            }
        }

        // The webcam (`live: webcam:`): a missing module or device refuses the rig with the command that fixes it.
        let liveSinks = try RigWiring.openLiveWebcam(rig: rig, serialContext: serialContext, events: events)
        // Last of the checks: a rig that cannot run (a required microphone missing) leaves no folder behind.
        do { try OutputFolder.prepare(outputDirectory) } catch { liveSinks.forEach { $0.close() }; throw error }
        monitor = MonitorFeed(programLens: rig.defaultLens)
        let deviceWorker: any BackgroundWorker = clock == .real ? SerialQueueWorker(label: "pausecam.devices") : InlineWorker()
        let slowCameraStart = RigWiring.faultDelay("PAUSECAM_FAULT_SLOW_CAMERA_START_MS")
        if slowCameraStart > .zero { deviceWorker.submit { Thread.sleep(forTimeInterval: slowCameraStart.seconds) } }
        let devices = DeviceHub(rig: rig, cameras: cameras, microphone: microphone, serialContext: serialContext,
                                devices: deviceWorker,
                                monitor: monitor, opener: SystemDeviceOpener(rig: rig, notify: notify),
                                lensNodes: lensNodes, lensBuses: lensBuses, microphoneCard: microphoneCard,
                                voiceMicrophones: voiceCards.microphones, voiceCardIdentities: voiceCards.cards,
                                notify: events)
        let sinkFactory = MovieWriterFactory(hooks: RigWiring.injectedFaults(),
                                             finishesInPlace: ProcessInfo.processInfo.environment[
                                                 "PAUSECAM_FINISH_BY_COPY"] != "1")
        let slowSidecar = RigWiring.faultDelay("PAUSECAM_FAULT_SLOW_SIDECAR_MS")
        let sidecarStore: any SidecarStore = slowSidecar > .zero
            ? SlowSidecarStore(AtomicSidecarStore(), delay: slowSidecar) : AtomicSidecarStore()
        let clips = ClipController(rig: rig, sinkFactory: sinkFactory, voiceWaves: BroadcastWaveWriterFactory(),
                                   store: sidecarStore,
                                   serialContext: serialContext, wallClock: wallClock, outputDirectory: outputDirectory,
                                   warnings: warnings, storage: FileSystemStorageProbe(),
                                   storagePolicy: RigWiring.storagePolicy(),
                                   finishing: SerialQueueWorker(label: "pausecam.finish"),
                                   savedEvents: RigWiring.savedEvents(clock), notify: events)
        controller = RigController(rig: rig, devices: devices, clips: clips, serialContext: serialContext,
                                   monitor: monitor, voiceResamplers: VoiceResamplers(),
                                   liveSinks: rig.live.map { live in
                                       PreparedLiveSinks(liveSinks, then: RigLiveSinks(live: live))
                                   },
                                   notify: events)
        runner = ScriptRunner(controller: controller, serialContext: serialContext)
        group = try RigWiring.joinGroup(rig: rig, clock: clock, controller: controller, serialContext: serialContext)
    }

    /// Joins the group (its broker is asked first, so that it answers while the devices start), starts the devices
    /// (on the serial context), the hot-plug watcher when the rig has real lenses, and the sound card watcher when
    /// its microphone is a real one. Before it returns, `session` waits for the broker's first answer as long as
    /// `GroupMember.brokerWait(before:)` says (a script a little, a shell not at all).
    func start(session: GroupMember.Session) {
        var joining = false
        if let group {
            do {
                try group.start()
                joining = true
            } catch {
                notify(.groupNotStarted(group: group.settings.name, reason: "\(error)"))
            }
        }
        let controller = self.controller
        serialContext.perform { controller.startDevices() }
        // The idle rig's recording time left before its first clip: the rate of this rig's newest clip there.
        if let rate = NewestClipRate.find(in: outputDirectory, rig: rig.name) {
            serialContext.perform { controller.expectRecordingRate(bytesPerSecond: rate.bytesPerSecond) }
        }
        // The cameras start on the device worker. A script's (or the shell's) first `record` waits for them: a
        // clip starts at its first frame, so a `record` given while the cameras are still opening would make the
        // scene shorter than its script by however long they take.
        controller.waitForDevices()
        if let group, joining { waitForBroker(group, session: session) }
        startSoundWatcher()
        let hasRealLenses = rig.lenses.contains { if case .camera = $0.source { return true } else { return false } }
        guard hasRealLenses else { return }
        let watcher = UdevWatcher()
        do {
            // Enumerating first makes the watcher know the cameras already here, so a `change` event for one
            // of them (`udevadm trigger`) is not mistaken for a new camera.
            _ = try watcher.enumerate()
            let devices = controller.devices
            try watcher.start { event in devices.handle(event) }
            self.watcher.withLock { $0 = watcher }
        } catch {
            notify(.cameraWatchNotStarted(reason: "\(error)"))
        }
    }

    /// Waits on the member's own event for the broker's first answer (connected, refused, unreachable), at most as
    /// long as Core's policy gives `session`; the member tells what the answer was. A broker that is down is not an
    /// error: commands apply on this member until it answers.
    private func waitForBroker(_ group: GroupMember, session: GroupMember.Session) {
        let wait = GroupMember.brokerWait(before: session)
        guard wait > .zero else { return }
        let answered = DispatchSemaphore(value: 0)
        group.whenAnswered { answered.signal() }
        if answered.wait(timeout: .now() + wait.seconds) == .timedOut {
            notify(.groupNotAnswering(group: group.settings.name, broker: "\(group.settings.broker)"))
        }
    }

    /// Leaves the group, stops the watcher and the devices, then the monitor's worker (anyone still waiting for a
    /// picture returns). A clip that a group command started after the session's last stop is finished first.
    func stop() {
        if let group {
            group.stop()
            let controller = self.controller
            let state = serialContext.perform { controller.status.state }
            if state != .idle { runner.finishClip() }
        }
        watcher.withLock { $0?.stop() }
        soundWatcher.withLock { $0?.stop() }
        let controller = self.controller
        serialContext.perform { controller.closeLive() }
        serialContext.perform { controller.stopDevices() }
        controller.waitForDevices()
        monitor.close()
    }

    /// Opens the camera at `path` for `lens`, asking for the movie's frame rate when the lens names none, and warns
    /// when the camera cannot deliver that rate in the mode it got (the output clock will repeat its frames); the
    /// driver's own remarks are told too (`EngineNotice.deviceRemark`).
    /// A `format: auto` lens is opened in the format the USB plan of the cameras present now gives it
    /// (`USBFormatAutoResolution`), decided afresh at each open so a camera plugged in or moved counts.
    static func openCamera(path: String, lens: Rig.Lens, rig: Rig,
                           notify: @escaping @Sendable (EngineNotice) -> Void) throws -> V4L2Camera {
        var wanted = lens
        if wanted.rate == nil { wanted.rate = rig.output.rate }
        var formatChoice: String?
        if lens.format == .auto, let choice = autoFormatChoice(for: lens, rig: rig), let encoding = choice.encoding {
            wanted.format = encoding == .mjpeg ? .mjpeg : .yuyv
            formatChoice = "\(encoding.rawValue): \(choice.reason)"
        }
        let camera = try V4L2Camera.open(path: path, lens: wanted, formatChoice: formatChoice,
                                         warn: { notify(.deviceRemark($0)) })
        if let advice = CameraRateAdvice.warning(lens: lens.name, camera: camera.displayName, delivered: camera.format,
                                                 output: rig.output.rate, format: lens.format, asked: lens.rate) {
            notify(.cameraSlowerThanMovie(advice: advice))
        }
        return camera
    }

    /// What `format: auto` gives `lens` among the cameras udev lists now on the USB buses sysfs shows; `nil`
    /// when the cameras cannot be listed (the lens then acts as `format: any`).
    static func autoFormatChoice(for lens: Rig.Lens, rig: Rig) -> USBFormatAutoChoice.Choice? {
        guard let cameras = try? UdevDeviceManager().describeCameras() else { return nil }
        let match = try? CameraMatcher.match(cameras.map(\.identity), to: rig.lenses)
        let choices = USBFormatAutoResolution.choices(rig: rig, cameras: cameras, match: match,
                                                      buses: (try? UdevUSBTopology.buses()) ?? [])
        return choices.first { $0.lens == lens.name }
    }

    /// Clips are finished on a thread of their own on either clock. On the real clock "saved" is told the moment the
    /// movie is written; on the simulated clock one second of session time after the stop (waiting there for the
    /// movie if needed), so a simulated run prints the same events at the same times however loaded the machine is.
    static func savedEvents(_ clock: ClockKind) -> ClipFinisher.SavedEvents {
        clock == .simulated ? .after(.seconds(1)) : .whenFinished
    }

    /// The free-space policy; `PAUSECAM_DISK_WARN_BYTES` and `PAUSECAM_DISK_STOP_BYTES` override its thresholds
    /// (the tests use them to exercise a full disk on a tiny file system).
    static func storagePolicy() -> StoragePolicy {
        let env = ProcessInfo.processInfo.environment
        var policy = StoragePolicy()
        if let warn = env["PAUSECAM_DISK_WARN_BYTES"].flatMap(Int64.init) { policy.warnBelow = warn }
        if let stop = env["PAUSECAM_DISK_STOP_BYTES"].flatMap(Int64.init) { policy.stopBelow = stop }
        return policy
    }

    /// A fault-injection delay from the environment variable `name` (milliseconds; zero when unset), to show (and
    /// test) what happens on a machine that cannot keep up: `PAUSECAM_FAULT_SLOW_ENCODER_MS` makes every video frame
    /// cost that much more to encode, `…_SLOW_OPEN_MS` every movie that much slower to open, `…_SLOW_CAMERA_START_MS`
    /// keeps the device worker busy that long before it starts the cameras (a camera slow to open),
    /// `…_SLOW_SIDECAR_MS` makes every sidecar write return that much later (`SlowSidecarStore`).
    static func faultDelay(_ name: String) -> MediaTime {
        let milliseconds = ProcessInfo.processInfo.environment[name].flatMap(Int64.init) ?? 0
        return .milliseconds(Swift.max(0, milliseconds))
    }

    /// The movie writers' injected faults (`InjectedFaults`), or nil when no variable asks for one:
    /// `…_SLOW_ENCODER_MS`, `…_SLOW_OPEN_MS`, `PAUSECAM_FAULT_REMUX_GATE=PATH` (every finish waits until PATH
    /// exists) and `PAUSECAM_FAULT_FINISH_KILL_AT_STEP=N` (the in-place finish SIGKILLs the process at step N, 1–5).
    static func injectedFaults() -> InjectedFaults? {
        let environment = ProcessInfo.processInfo.environment
        let faults = InjectedFaults(encodeDelay: faultDelay("PAUSECAM_FAULT_SLOW_ENCODER_MS"),
                                    openDelay: faultDelay("PAUSECAM_FAULT_SLOW_OPEN_MS"),
                                    remuxGate: environment["PAUSECAM_FAULT_REMUX_GATE"],
                                    killAt: environment["PAUSECAM_FAULT_FINISH_KILL_AT_STEP"]
                                        .flatMap(Int.init).flatMap(InPlaceFinishStep.init(rawValue:)))
        return faults.isEmpty ? nil : faults
    }

    /// Fault injection: `PAUSECAM_FAULT_USB_STREAMS=N:LENS,LENS…` puts those virtual lenses on one simulated USB
    /// bus that carries N streams at once (`VirtualUSBBus`), so a start beyond N is refused as `ENOSPC` refuses
    /// it on a real bus; `nil` when unset. A malformed value or a lens that is not virtual is a usage error.
    static func faultUSBBus(rig: Rig) throws -> (VirtualUSBBus, [String])? {
        let name = "PAUSECAM_FAULT_USB_STREAMS"
        guard let value = ProcessInfo.processInfo.environment[name] else { return nil }
        let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let streams = Int(parts[0]), streams >= 0 else {
            throw UsageError("\(name)=\(value): write STREAMS:LENS,LENS… (e.g. 2:wide,main,tele)")
        }
        let lenses = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for lens in lenses {
            guard case .virtual = rig.lens(named: lens)?.source else {
                throw UsageError("\(name): lens \(lens) is not a virtual lens of rig \"\(rig.name)\"; "
                                 + "only virtual lenses go on the simulated bus")
            }
        }
        return (VirtualUSBBus(streams: streams), lenses)
    }

    /// A device the rig needs cannot be used: reported before anything is recorded, exit status 1.
    struct DeviceError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// `~` → home, `$XDG_VIDEOS_DIR` / `${XDG_VIDEOS_DIR}` → that variable (or ~/Videos when unset).
    static func expandDirectory(_ text: String) -> String {
        let env = ProcessInfo.processInfo.environment
        let home = env["HOME"] ?? NSHomeDirectory()
        var s = text
        let videos = env["XDG_VIDEOS_DIR"] ?? (home + "/Videos")
        s = s.replacingOccurrences(of: "${XDG_VIDEOS_DIR}", with: videos)
            .replacingOccurrences(of: "$XDG_VIDEOS_DIR", with: videos)
        if s == "~" { s = home } else if s.hasPrefix("~/") { s = home + s.dropFirst(1) }
        return s
    }
}
