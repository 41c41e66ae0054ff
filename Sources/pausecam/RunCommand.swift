import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam run RIG [--script NAME] [--output DIR] [--clock real|simulated] [--keep-going] [--quiet]`: runs one
/// scene script unattended, then prints the movie's and sidecar's paths and a one-line summary.
///
/// Fails like a Unix tool: the first failed step ends the script (unless `--keep-going` or `on_error: continue`),
/// the clip in progress is saved either way, and the exit status says what happened (see `HelpText.exitStatus`).
enum RunCommand {
    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["script", "output", "clock", "socket", "web"],
                            flags: ["keep-going", "quiet", "no-web"])
        guard arguments.positional.count == 1, let rigPath = arguments.positional.first else {
            throw UsageError("run needs exactly one rig file: pausecam run RIG [--script NAME]")
        }
        let clockText = arguments.options["clock"] ?? "real"
        guard let clock = RigWiring.ClockKind(rawValue: clockText) else {
            throw UsageError("--clock is real or simulated, not \"\(clockText)\"")
        }
        let quiet = arguments.flags.contains("quiet")
        let rig = try RigLoader.load(path: rigPath,
                                     surroundings: .thisMachine(socketOption: arguments.options["socket"],
                                                                outputOption: arguments.options["output"]))
        try RigSurroundings.reportBeforeRun(rig)
        guard let firstScript = rig.scripts.first else {
            throw UsageError("\(rigPath) has no scripts; add one under `scripts:` or use `pausecam shell \(rigPath)`")
        }
        let scriptName = arguments.options["script"] ?? firstScript.name
        guard let script = rig.script(named: scriptName) else {
            let names = rig.scripts.map(\.name)
            throw UsageError("\(rigPath) has no script \"\(scriptName)\"\(SpellingSuggestion.clause(for: scriptName, in: names)); "
                             + "scripts: \(names.joined(separator: ", "))")
        }

        let webChoice = try MonitorEndpoint.choice(arguments, rig: rig)
        let control = try ControlEndpoint.claim(rig: rig, socketOption: arguments.options["socket"])
        let monitor = MonitorEndpoint()
        let osc = OscEndpoint()
        let console = Console()
        let progressSlot = ProgressDrawer.Slot()
        let wiring = try RigWiring(rig: rig, clock: clock, output: arguments.options["output"], events: { event in
            control.publish(event)
            monitor.publish(event)
            osc.publish(event)
            guard RunCommand.isShown(event, quiet: quiet) else { return }
            progressSlot.drawer?.clear()
            console.event(event.text)
        })
        let serialContext = wiring.serialContext
        let runner = wiring.runner
        let controller = wiring.controller
        progressSlot.drawer = ProgressDrawer.install(on: runner, quiet: quiet, measuresPerWait: false)
        let received = ReceivedSignal()
        let signals = SignalWatcher { signal in
            received.record(signal)
            progressSlot.drawer?.clear()
            console.event("\(signal.name): stopping the script and saving the clip")
            serialContext.interrupt()
        }
        try monitor.start(webChoice, rig: rig, controller: controller, serialContext: serialContext, pictures: wiring.monitor)
        try osc.start(rig: rig, controller: controller, serialContext: serialContext)
        try control.start(rig: rig, controller: controller, serialContext: serialContext, webAddress: monitor.url)
        wiring.start(session: .script)
        if !quiet {
            console.line("running script \"\(script.name)\" of \(rig.name) (\(clock.rawValue) clock, "
                         + "\(DurationParser.clockString(script.scriptedTime)) scripted)")
        }
        if !quiet || webChoice.isExplicit, let banner = monitor.banner { console.line(banner) }
        let start = runner.now
        let onError: Rig.Script.OnError? = arguments.flags.contains("keep-going") ? .continue : nil
        let outcome = runner.run(script, onError: onError) { step, reply in
            if case .wait = step, reply.ok { return }
            guard !quiet || !reply.ok else { return }
            let scriptTime = DurationParser.clockString(runner.now - start)
            let movieTime = DurationParser.clockString(serialContext.perform { controller.status.timer })
            progressSlot.drawer?.clear()
            let text = step.word == "wait" ? reply.message
                : "\(CommandParser.line(for: step)): \(reply.ok ? "" : "error: ")\(reply.message)"
            console.line("[script \(scriptTime) movie \(movieTime)] \(text)")
        }
        switch outcome {
        case .stopped(let failure):
            console.event("\(failure); the script stops here (on_error: continue or --keep-going would go on)")
        case .completed(let failures) where !failures.isEmpty:
            console.event("\(failures.count) step(s) failed: "
                          + failures.map { $0.mark.map { "\($0.file):\($0.line)" } ?? "step \($0.index + 1)" }
                                .joined(separator: ", "))
        default:
            break
        }
        let earlier = controller.clipsBeingSaved.map { PathText.lastComponent(of: $0) }
        if !earlier.isEmpty {
            progressSlot.drawer?.clear()
            console.event("waiting for \(earlier.joined(separator: ", ")) to be saved before exiting…")
        }
        let clip = runner.finishClip()
        progressSlot.drawer?.clear()
        monitor.stop()
        osc.stop()
        control.stop()
        wiring.stop()
        withExtendedLifetime(signals) {}
        let signalStatus = received.signal.map { 128 + $0.rawValue }
        guard let clip else {
            if let failure = serialContext.perform({ controller.clips.outcome.failure }) {
                console.line("the clip was not finished: \(failure)")
                return 1
            }
            if let reason = serialContext.perform({ controller.clips.outcome.nothingRecorded }) {
                console.line(reason)
            } else if !quiet || outcome.succeeded {
                console.line("no clip was recorded")
            }
            return signalStatus ?? 1
        }
        let sidecar = clip.sidecar
        console.line("movie:   \(clip.moviePath)")
        console.line("sidecar: \(clip.sidecarPath)")
        if let isos = sidecar.iso, let folder = isoFolder(of: isos, sidecarPath: clip.sidecarPath) {
            let names = isos.map { $0.file.split(separator: "/").last.map(String.init) ?? $0.file }
            console.line("isos:    \(folder) (\(names.joined(separator: ", ")))")
        }
        if !quiet {
            if let thumbnail = clip.thumbnailPath { console.line("thumbnail: \(thumbnail)") }
            let dropped = sidecar.video.framesDropped
            let ended = outcome.succeeded ? "" : (signalStatus != nil ? " (interrupted)" : " (the script failed)")
            console.line("\(sidecar.scenes.count) scene(s), \(String(format: "%.3f", sidecar.duration)) s, "
                         + "\(dropped) dropped frame(s)\(RigStatus.mailboxDropText(sidecar.devices))\(ended)")
        }
        if let signalStatus { return signalStatus }
        return outcome.succeeded ? 0 : 1
    }

    /// Events `--quiet` leaves out: news, not trouble (a saved clip is printed as a path anyway).
    static func isInformational(_ event: EngineEvent) -> Bool {
        switch event {
        case .clipSaved, .lensSwitched, .cameraAttached, .countdown: return true
        case .countdownEnded(_, let ok): return ok
        case .notice(.videoOnly): return true
        default: return false
        }
    }

    /// Whether an event is printed where the user looks (the shell's event lines, `run`'s standard error): the
    /// replies to this process's own commands are printed by whoever gave them, so only commands from outside
    /// (a remote, a pedal) are told as events; `quiet` leaves out the informational ones.
    static func isShown(_ event: EngineEvent, quiet: Bool) -> Bool {
        if case .command(let command) = event, !command.source.isFromOutside { return false }
        if case .lensLive = event { return false }
        if case .focusAtPoint = event { return false }  // the command's reply (or event) already says it
        return !quiet || !isInformational(event)
    }

    /// The first stop signal received, for the exit status (128 + its number).
    private final class ReceivedSignal: Sendable {
        private let first = Guarded<SignalWatcher.Signal?>(nil)
        func record(_ signal: SignalWatcher.Signal) { first.withLock { if $0 == nil { $0 = signal } } }
        var signal: SignalWatcher.Signal? { first.withLock { $0 } }
    }

    /// The folder of a clip's ISO movies (`NAME.iso`, beside the sidecar), from the sidecar's list; nil without ISOs.
    static func isoFolder(of isos: [Sidecar.IsoMovie], sidecarPath: String) -> String? {
        guard let first = isos.first?.file.split(separator: "/").first, isos.first?.file.contains("/") == true else {
            return nil
        }
        let directory = sidecarPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        return (directory.isEmpty ? "" : directory + "/") + first
    }
}
