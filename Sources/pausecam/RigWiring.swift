import Foundation
import PauseCamCore
import PauseCamSystem
import PauseCamVirtual

/// Builds a running rig from a rig file's `Rig`: the scheduler (real or simulated clock), a camera per lens, the
/// microphone, the movie writer and the controller. The one place that knows every concrete device type.
final class RigWiring {
    enum ClockKind: String { case real, simulated }

    let rig: Rig
    let scheduler: any Scheduler
    let controller: RigController
    let runner: ScriptRunner
    let outputDirectory: String

    /// Wires `rig`; `output` overrides the rig's directory; `notify` prints events for the user.
    init(rig: Rig, clock: ClockKind, output: String?, notify: @escaping (String) -> Void) throws {
        self.rig = rig
        let scheduler: any Scheduler
        let wallClock: @Sendable () -> Date
        switch clock {
        case .real:
            scheduler = RealTimeScheduler()
            wallClock = { Date() }
        case .simulated:
            let simulated = SimulatedScheduler()
            scheduler = simulated
            // Wall-clock times follow the simulated clock from the real start, so names and sidecars stay plausible.
            let start = Date()
            let origin = simulated.clock.now()
            wallClock = { start.addingTimeInterval((simulated.clock.now() - origin).seconds) }
        }
        self.scheduler = scheduler
        outputDirectory = RigWiring.expandDirectory(output ?? rig.output.directory)

        var warnings: [String] = []
        let warn: @Sendable (String) -> Void = { notify("warning: \($0)") }
        var cameras: [String: any Camera] = [:]
        let realLenses = rig.lenses.filter { if case .camera = $0.source { return true } else { return false } }
        if !realLenses.isEmpty {
            if clock == .simulated {
                throw UsageError("--clock simulated drives virtual lenses only; lenses \(realLenses.map(\.name).joined(separator: ", ")) are real cameras")
            }
            let found: [CameraIdentity]
            do {
                found = try UdevDeviceManager().cameras()
            } catch {
                found = []
                warnings.append("cameras could not be listed: \(error)")
                warn("cameras could not be listed: \(error)")
            }
            let matched = try CameraMatcher.match(found, to: rig.lenses)
            for lens in realLenses {
                guard let identity = matched.camera(for: lens.name) else {
                    let message = "lens \(lens.name): no camera matches \(RigWiring.rule(of: lens)); see `pausecam devices`"
                    warnings.append(message)
                    warn(message)
                    continue
                }
                do {
                    cameras[lens.name] = try V4L2Camera.open(path: identity.devicePath, lens: lens, warn: warn)
                } catch {
                    let message = "lens \(lens.name): \(identity.devicePath) could not be opened: \(error)"
                    warnings.append(message)
                    warn(message)
                }
            }
        }
        for lens in rig.lenses {
            if case .virtual(let color) = lens.source {
                cameras[lens.name] = VirtualLens(lens: lens.name, color: color, width: lens.width ?? rig.output.width,
                                                 height: lens.height ?? rig.output.height,
                                                 rate: lens.rate ?? rig.output.rate, scheduler: scheduler)
            }
        }

        var microphone: (any Microphone)?
        switch rig.audio.device {
        case .none:
            notify("audio: none — recording video only")
        case .virtual:
            microphone = VirtualMicrophone(scheduler: scheduler)
        case .alsa(let name):
            if clock == .simulated {
                let message = "--clock simulated cannot drive the real microphone \"\(name)\"; recording video only"
                if rig.audio.required { throw UsageError(message) }
                warnings.append(message)
                warn(message)
            } else {
                do {
                    microphone = try ALSAMicrophone(pcm: name, warn: warn)
                } catch {
                    if rig.audio.required {
                        throw UsageError("the microphone is required (audio.required: true) but \(error)")
                    }
                    let message = "microphone \"\(name)\" cannot be opened (\(error)); recording video only"
                    warnings.append(message)
                    warn(message)
                }
            }
        }

        controller = RigController(rig: rig, cameras: cameras, microphone: microphone,
                                   sinkFactory: MovieWriterFactory(), store: AtomicSidecarStore(),
                                   scheduler: scheduler, wallClock: wallClock, outputDirectory: outputDirectory,
                                   warnings: warnings, notify: notify)
        runner = ScriptRunner(controller: controller, scheduler: scheduler)
    }

    /// Starts the devices (on the serial context).
    func start() {
        let controller = self.controller
        scheduler.perform { controller.startDevices() }
    }

    /// Stops the devices.
    func stop() {
        let controller = self.controller
        scheduler.perform { controller.stopDevices() }
    }

    static func rule(of lens: Rig.Lens) -> String {
        if case .camera(let rule) = lens.source { return "\(rule)" }
        return "a virtual source"
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
