import Foundation
import PauseCamCore

/// The REPL: reads lines through a `LineReader`, turns each into a `Command` with the one `CommandParser`, and
/// carries it out through the `ScriptRunner` (which hops onto the engine's serial context), printing the reply.
///
/// Threading: `run()` and everything it calls happen on one thread (the main thread); the engine's events may come
/// from any thread and go straight to `LineReader.printAbove`. Signals arrive through `receive(_:)` from any thread:
/// they are queued, the read or the running `wait` is cut short, and the main thread acts on them, so the recording
/// is only ever stopped from one place.
public final class Shell: @unchecked Sendable {
    /// What the shell needs from its surroundings that only the composition root can provide.
    public struct Surroundings {
        /// The text of `devices`.
        public var devices: () -> String
        /// Opens a movie with the desktop's player; returns what to tell the user.
        public var openMovie: (String) -> String
        /// Makes a blocked `readLine` return an empty line soon (callable from any thread).
        public var interruptRead: @Sendable () -> Void

        public init(devices: @escaping () -> String, openMovie: @escaping (String) -> String,
                    interruptRead: @escaping @Sendable () -> Void) {
            self.devices = devices
            self.openMovie = openMovie
            self.interruptRead = interruptRead
        }
    }

    private let controller: RigController
    private let runner: ScriptRunner
    private let scheduler: any Scheduler
    private let reader: any LineReader
    private let surroundings: Surroundings
    private let parser: CommandParser
    private let formatter: PromptFormatter
    /// A person at a terminal (line editing, no echo) rather than a pipe of commands (each echoed after its prompt).
    private let interactive: Bool

    private let lock = NSLock()
    private var pendingSignals: [(ExitGuard.Signal, busy: Bool)] = []
    private var busy = false
    private var exitGuard: ExitGuard

    /// A shell on a wired rig. `color` turns on colour in the prompt (off for NO_COLOR and non-terminals).
    public init(controller: RigController, runner: ScriptRunner, scheduler: any Scheduler, reader: any LineReader,
                interactive: Bool, color: Bool, surroundings: Surroundings) {
        self.controller = controller
        self.runner = runner
        self.scheduler = scheduler
        self.reader = reader
        self.surroundings = surroundings
        self.interactive = interactive
        parser = CommandParser(rig: controller.rig)
        formatter = PromptFormatter(color: color)
        exitGuard = ExitGuard(interactive: interactive)
        let completer = ShellCompleter(rig: controller.rig)
        reader.completer = { completer.complete($0) }
    }

    /// How an event of the engine is shown (above the prompt on a terminal, in the transcript on a pipe).
    public static func eventLine(_ text: String) -> String { "* " + text }

    // MARK: The loop

    /// Reads and carries out commands until `quit`, end of input or a signal that ends the session; a recording is
    /// always stopped and saved first. Returns the process's exit status.
    public func run() -> Int32 {
        while true {
            if let status = actOnSignals() { return status }
            let prompt = self.prompt()
            guard let line = reader.readLine(prompt: prompt) else {
                if let status = actOnSignals() { return status }
                return endOfInput()
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if !interactive { say(prompt + trimmed) }
            reader.addHistory(trimmed)
            lock.withLock { _ = exitGuard.handle(.commandTyped) }
            if let status = perform(trimmed) { return status }
        }
    }

    /// A signal, from any thread: queued for the main thread, which is woken from its read or its `wait`.
    public func receive(_ signal: ExitGuard.Signal) {
        let wasBusy = lock.withLock { () -> Bool in
            pendingSignals.append((signal, busy: busy))
            return busy
        }
        if wasBusy { scheduler.interrupt() }
        surroundings.interruptRead()
    }

    /// The prompt for the live state: `● REC scene 3 00:01:23.4 main 2.0x > `.
    public func prompt() -> String {
        let controller = self.controller
        let status = scheduler.perform { controller.status }
        return formatter.prompt(state: status.state, scene: status.scene, timer: status.timer, lens: status.lens,
                                digitalZoom: status.digitalZoom)
    }

    // MARK: Commands

    /// Carries out one typed line; returns an exit status when the session ends.
    func perform(_ line: String) -> Int32? {
        let command: Command
        switch parser.parse(line) {
        case .failure(let failure):
            say("error: \(failure.message)")
            return nil
        case .success(let parsed):
            command = parsed
        }
        switch command {
        case .quit:
            return stopAndSave(before: "stopping and saving the clip before quitting") ?? 0
        case .help(let topic):
            say(topic.map(ShellHelp.details) ?? ShellHelp.overview)
        case .devices:
            say(surroundings.devices())
        case .last(let play):
            last(play: play)
        case .run(let name):
            runScript(named: name)
        case .wait:
            reply(whileBusy { runner.perform(command) })
        case .stop:
            let answer = runner.perform(command)
            reply(answer)
            if answer.ok { whileBusy { _ = runner.finishClip() } }
        default:
            reply(runner.perform(command))
        }
        return nil
    }

    private func reply(_ reply: RigController.Reply) {
        say(reply.ok ? reply.message : "error: \(reply.message)")
    }

    private func say(_ text: String) { reader.printAbove(text) }

    private func whileBusy<T>(_ work: () -> T) -> T {
        lock.withLock { busy = true }
        defer { lock.withLock { busy = false } }
        return work()
    }

    private var state: Session.State {
        let controller = self.controller
        return scheduler.perform { controller.status.state }
    }

    private func runScript(named name: String) {
        guard let script = controller.rig.script(named: name) else { return }
        // Every script records its own clip and stops it: run during a clip would end the user's clip.
        guard state == .idle || state == .finished else {
            say("error: a clip is being recorded; `run` records a clip of its own — `stop` this one first")
            return
        }
        say("running script \"\(script.name)\" (\(DurationParser.clockString(script.scriptedTime)) scripted)")
        let completed = whileBusy {
            runner.run(script) { step, reply in
                if case .wait = step, reply.ok { return }
                say("  \(CommandParser.line(for: step)): \(reply.ok ? "" : "error: ")\(reply.message)")
            }
        }
        if !completed {
            let recording = state == .recording || state == .paused
            say("script \"\(script.name)\" stopped" + (recording ? "; the recording goes on (stop saves it)" : ""))
        }
        if state == .stopping { whileBusy { _ = runner.finishClip() } }
    }

    private func last(play: Bool) {
        let controller = self.controller
        guard let clip = scheduler.perform({ controller.lastClip }) else {
            say("no clip saved yet in this session; record one first")
            return
        }
        let sidecar = clip.sidecar
        var lines = [clip.moviePath,
                     "  duration \(String(format: "%.3f", sidecar.duration)) s · \(sidecar.scenes.count) scene(s) · "
                     + "\(sidecar.video.framesDropped) dropped frame(s)"]
        lines.append("  thumbnail \(clip.thumbnailPath ?? "none")")
        if play { lines.append(surroundings.openMovie(clip.moviePath)) }
        say(lines.joined(separator: "\n"))
    }

    // MARK: Ways out

    /// Stops and saves a clip that is recording, paused or being stopped; says `message` first when there is one.
    /// Returns nil (for the caller's own status).
    @discardableResult
    private func stopAndSave(before message: String) -> Int32? {
        let current = state
        if current == .recording || current == .paused || current == .stopping {
            say(message)
            whileBusy { _ = runner.finishClip() }
        }
        return nil
    }

    private func endOfInput() -> Int32 {
        stopAndSave(before: "end of input: stopping and saving the clip")
        return 0
    }

    /// Acts on the signals received since the last look; returns an exit status when one ends the session.
    private func actOnSignals() -> Int32? {
        while true {
            let next = lock.withLock { pendingSignals.isEmpty ? nil : pendingSignals.removeFirst() }
            guard let (signal, wasBusy) = next else { return nil }
            let current = state
            let recording = current == .recording || current == .paused
            let action = lock.withLock {
                exitGuard.handle(.signal(signal, recording: recording, busy: wasBusy))
            }
            switch action {
            case .none:
                break
            case .say(let text):
                say(text)
            case .stopAndQuit(let message, let status):
                say(message)
                if current == .recording || current == .paused || current == .stopping {
                    whileBusy { _ = runner.finishClip() }
                }
                return status
            }
        }
    }
}
