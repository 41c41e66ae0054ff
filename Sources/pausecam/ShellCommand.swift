import Foundation
import PauseCamCore
import PauseCamShell
import PauseCamSystem

/// `pausecam shell RIG [--output DIR] [--clock real|simulated] [--on-error continue|stop]` (and plain
/// `pausecam RIG`): wires the rig like `pausecam run`, picks the line reader (libedit on a terminal, plain lines
/// from a pipe), maps the operating system's signals onto the shell, and runs the REPL until it ends. The exit
/// status is the shell's: 0, 1 when a command or clip failed, 128 + N after signal N.
enum ShellCommand {
    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["output", "clock", "on-error", "socket", "web"], flags: ["quiet", "no-web", "keys"])
        guard arguments.positional.count == 1, let rigPath = arguments.positional.first else {
            throw UsageError("shell needs exactly one rig file: pausecam shell RIG [--output DIR]")
        }
        let clockText = arguments.options["clock"] ?? "real"
        guard let clock = RigWiring.ClockKind(rawValue: clockText) else {
            throw UsageError("--clock is real or simulated, not \"\(clockText)\"")
        }
        let errorText = arguments.options["on-error"] ?? "continue"
        guard let errorPolicy = ShellErrorPolicy(argument: errorText) else {
            throw UsageError("--on-error is continue or stop, not \"\(errorText)\"")
        }
        let rig = try RigLoader.load(path: rigPath,
                                     surroundings: .thisMachine(socketOption: arguments.options["socket"],
                                                                outputOption: arguments.options["output"]))
        try RigSurroundings.reportBeforeRun(rig)
        let webChoice = try MonitorEndpoint.choice(arguments, rig: rig)
        let control = try ControlEndpoint.claim(rig: rig, socketOption: arguments.options["socket"])
        let monitor = MonitorEndpoint()
        let osc = OscEndpoint()
        let environment = ProcessInfo.processInfo.environment
        let interactive = LibEditLineReader.standardStreamsAreTerminals
        let quiet = arguments.flags.contains("quiet")
        let color = interactive && (environment["NO_COLOR"] ?? "").isEmpty

        let editor = interactive ? LibEditLineReader(historyPath: LibEditLineReader.defaultHistoryPath(environment: environment)) : nil
        let plain = interactive ? nil : PlainLineReader()
        let reader: any LineReader & Sendable = editor ?? plain!
        let printer = EventPrinter(reader: reader)
        let progressSlot = ProgressDrawer.Slot()
        let wiring = try RigWiring(rig: rig, clock: clock, output: arguments.options["output"],
                                   events: { event in
                                       control.publish(event)
                                       monitor.publish(event)
                                       osc.publish(event)
                                       guard isShown(event, quiet: quiet) else { return }
                                       progressSlot.drawer?.clear()
                                       printer.print(Shell.eventLine(event.text))
                                       // The countdown is audible too: the terminal's bell, once a second.
                                       if interactive, case .countdown = event { StandardStreamWriter.output.write("\u{7}") }
                                   })
        let controller = wiring.controller
        let serialContext = wiring.serialContext
        let surroundings = Shell.Surroundings(
            devices: { devicesText(rig: rig, available: serialContext.perform { controller.bank.running }) },
            openMovie: { openWithDesktopPlayer($0, environment: environment) },
            interruptRead: { editor?.interruptRead(); plain?.interruptRead() })
        // An interactive shell on the real clock shows its own live status line during a `wait`; the progress line
        // (simulated waits, or a terminal on stderr only) would draw over it.
        let liveStatus = interactive && clock == .real
        let shell = Shell(controller: controller, runner: wiring.runner, serialContext: serialContext, reader: reader,
                          interactive: interactive, color: color, errorPolicy: errorPolicy,
                          liveStatusWhileWaiting: liveStatus, quiet: quiet,
                          startInKeys: arguments.flags.contains("keys"), surroundings: surroundings)
        editor?.livePrompt = { shell.prompt() }
        progressSlot.drawer = liveStatus ? nil : ProgressDrawer.install(on: wiring.runner, quiet: quiet, measuresPerWait: true)
        let inbox = shell.signals
        let signals = SignalWatcher { signal in
            switch signal {
            case .interrupt: inbox.receive(.interrupt)
            case .terminate: inbox.receive(.terminate)
            case .hangUp: inbox.receive(.hangUp)
            }
        }
        try monitor.start(webChoice, rig: rig, controller: controller, serialContext: serialContext, pictures: wiring.monitor)
        try osc.start(rig: rig, controller: controller, serialContext: serialContext)
        try control.start(rig: rig, controller: controller, serialContext: serialContext, webAddress: monitor.url)
        wiring.start(session: .shell)
        if interactive {
            reader.printAbove("pausecam shell — \(rig.name), \(clock.rawValue) clock, writing to \(wiring.outputDirectory)."
                              + " Type help for the commands.")
            if let banner = monitor.banner { reader.printAbove(banner) }
        } else if webChoice.isExplicit, let banner = monitor.banner {
            // A piped shell's standard output is its transcript: the address goes beside the errors.
            StandardStreamWriter.error.write(banner + "\n")
        }
        // The window title is a tally while recording or paused, on a terminal only.
        let engine = SerialContextBound.confining(controller, to: serialContext)
        let tally = interactive ? TerminalTally(status: {
            let status = serialContext.perform { engine.value.status }
            return (status.state, status.timer, status.countdown)
        }) : nil
        let status = shell.run()
        tally?.stop()
        monitor.stop()
        osc.stop()
        control.stop()
        wiring.stop()
        withExtendedLifetime((signals, progressSlot)) {}
        return status
    }

    /// Whether the shell prints an event: as `run` does, except that a saved clip is printed under `--quiet` too
    /// (`run` prints its paths itself at the end; a shell's clips end whenever `stop` is typed).
    static func isShown(_ event: EngineEvent, quiet: Bool) -> Bool {
        if case .clipSaved = event { return true }
        return RunCommand.isShown(event, quiet: quiet)
    }

    /// The text of the shell's `devices`: each lens, what serves it, and whether it is delivering now.
    static func devicesText(rig: Rig, available: Set<String>) -> String {
        let width = rig.lenses.map(\.name.count).max() ?? 0
        return rig.lenses.map { lens in
            let source: String
            switch lens.source {
            case .virtual(let color): source = "virtual lens \(color)"
            case .camera(let rule): source = "camera matching \(rule)"
            case .file(let path, let loop): source = "movie file \(path)" + (loop ? ", looped" : "")
            }
            let state = available.contains(lens.name) ? "delivering" : "no camera"
            return "\(lens.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(source) (\(state))"
        }.joined(separator: "\n")
    }

    /// Opens `path` with `xdg-open` when it is on the PATH; says so either way, and always names the movie.
    /// `xdg-open` hands the file to the desktop's player and ends at once, or fails (no desktop, no application for
    /// the file): it is given `waitSeconds` to end, and a failure is said with its status and what that status
    /// means. One still running then (a player started in its place) is opening the movie.
    static func openWithDesktopPlayer(_ path: String, environment: [String: String],
                                      waitSeconds: Double = 3) -> String {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        guard let opener = directories.map({ $0 + "/xdg-open" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return "no desktop player here (xdg-open is not installed); the movie is \(path)"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do {
            try process.run()
        } catch {
            return "xdg-open could not be started: \(error); the movie is \(path)"
        }
        guard ended.wait(timeout: .now() + waitSeconds) == .success, process.terminationStatus != 0 else {
            return "opening with xdg-open: \(path)"
        }
        // xdg-open's documented exit statuses.
        let reasons: [Int32: String] = [1: "it did not understand its arguments", 2: "it found no such file",
                                        3: "a tool it needs is missing (no desktop or no application for the file)",
                                        4: "the desktop could not open it"]
        let status = process.terminationStatus
        return "xdg-open failed (exit status \(status)" + (reasons[status].map { ": \($0)" } ?? "")
            + "); the movie is \(path)"
    }
}
