import Foundation
import PauseCamCore
import PauseCamSystem

/// `pausecam run RIG [--script NAME] [--output DIR] [--clock real|simulated]`: runs one scene script unattended,
/// then prints the movie's and sidecar's paths and a one-line summary.
enum RunCommand {
    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["script", "output", "clock"], flags: [])
        guard arguments.positional.count == 1, let rigPath = arguments.positional.first else {
            throw UsageError("run needs exactly one rig file: pausecam run RIG [--script NAME]")
        }
        let clockText = arguments.options["clock"] ?? "real"
        guard let clock = RigWiring.ClockKind(rawValue: clockText) else {
            throw UsageError("--clock is real or simulated, not \"\(clockText)\"")
        }
        let rig = try RigLoader.load(path: rigPath)
        guard let firstScript = rig.scripts.first else {
            throw UsageError("\(rigPath) has no scripts; add one under `scripts:` or use `pausecam shell \(rigPath)`")
        }
        let scriptName = arguments.options["script"] ?? firstScript.name
        guard let script = rig.script(named: scriptName) else {
            let names = rig.scripts.map(\.name)
            throw UsageError("\(rigPath) has no script \"\(scriptName)\"\(SpellingSuggestion.clause(for: scriptName, in: names)); "
                             + "scripts: \(names.joined(separator: ", "))")
        }

        let console = Console()
        let wiring = try RigWiring(rig: rig, clock: clock, output: arguments.options["output"],
                                   notify: { console.event($0) })
        let scheduler = wiring.scheduler
        let signals = SignalWatcher { signal in
            console.event("\(signal.name): stopping the script and saving the clip")
            scheduler.interrupt()
        }
        wiring.start()
        console.line("running script \"\(script.name)\" of \(rig.name) (\(clock.rawValue) clock, "
                     + "\(DurationParser.clockString(script.scriptedTime)) scripted)")
        let start = wiring.runner.now
        let completed = wiring.runner.run(script) { step, reply in
            let at = DurationParser.clockString(wiring.runner.now - start)
            if case .wait = step { if !reply.ok { console.line("[\(at)] \(reply.message)") }; return }
            console.line("[\(at)] \(CommandParser.line(for: step)): \(reply.ok ? "" : "error: ")\(reply.message)")
        }
        let clip = wiring.runner.finishClip()
        wiring.stop()
        withExtendedLifetime(signals) {}
        guard let clip else {
            if let failure = wiring.scheduler.perform({ wiring.controller.lastFailure }) {
                console.line("the clip was not finished: \(failure)")
                return 1
            }
            console.line(completed ? "no clip was recorded" : "interrupted; no clip was recorded")
            return completed ? 1 : 130
        }
        let sidecar = clip.sidecar
        console.line("movie:   \(clip.moviePath)")
        console.line("sidecar: \(clip.sidecarPath)")
        if let thumbnail = clip.thumbnailPath { console.line("thumbnail: \(thumbnail)") }
        let dropped = sidecar.video.framesDropped
        console.line("\(sidecar.scenes.count) scene(s), \(String(format: "%.3f", sidecar.duration)) s, "
                     + "\(dropped) dropped frame(s)\(completed ? "" : " (interrupted)")")
        if completed { return 0 }
        // Ended by PauseCam (full disk, failed write): the clip is saved, but the script did not run to its end.
        return scheduler.perform({ wiring.controller.clipInterruption }) == nil ? 130 : 1
    }
}
