import Foundation
import PauseCamCore

/// The REPL: reads lines through a `LineReader`, turns each into a `Command` with the one `CommandParser`, and
/// carries it out through the `ScriptRunner` (which hops onto the engine's serial context), printing the reply.
///
/// Like a shell script, a session can be judged by its caller: results go to standard output, failures to
/// standard error (with the input line number when piped), and the exit status is 1 when any command or clip
/// failed — a clip with nothing recorded, one PauseCam had to stop, one that could not be finished included.
/// `--on-error stop` ends the session at the first failure. Lines starting with `#` are comments.
///
/// Threading: `run()` and everything it calls happen on one thread (the main thread), so the shell is not
/// `Sendable`; the engine's events may come from any thread and go straight to `LineReader.printAbove`. Signals
/// arrive from any thread through `signals` (`ShellSignalInbox`): they are queued, the read or the running `wait`
/// is cut short, and the main thread acts on them, so the recording is only ever stopped from one place. The live
/// status line, redrawn on another thread, reads the engine through a `SerialContextBound`.
public final class Shell {
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
    /// The controller for work on other threads (the live status line), boxed for the serial context.
    private let engine: SerialContextBound<RigController>
    private let runner: ScriptRunner
    private let serialContext: any SerialContext
    private let reader: any LineReader
    private let surroundings: Surroundings
    private let parser: CommandParser
    private let formatter: PromptFormatter
    /// A person at a terminal (line editing, no echo) rather than a pipe of commands (each echoed after its prompt).
    private let interactive: Bool
    /// What a failed command does (`--on-error`).
    private let errorPolicy: ShellErrorPolicy
    /// Whether a `wait` shows a ticking status line (a terminal on the real clock; the simulated clock's wait runs
    /// the engine on this thread, so nothing may look at it from another).
    private let liveStatusWhileWaiting: Bool
    /// `--quiet`: no echo of piped commands and no results, only errors (and the events the composition root
    /// shows: warnings, saved clips); `help`, `devices` and `last` still answer, since nothing else would.
    private let quiet: Bool
    /// The hotkey mode's keys (`keys`).
    private let hotkeys: HotkeyMap
    /// `--keys`: the session begins in the hotkey mode.
    private let startInKeys: Bool

    /// Where signals from other threads wait for the main thread.
    public let signals: ShellSignalInbox
    private var exitGuard: ExitGuard

    /// The number of the input line being carried out (comments and blank lines count, as in a script).
    private var lineNumber = 0
    /// The command being carried out, for error lines of a piped session.
    private var currentCommand: String?
    /// Whether the command being carried out failed.
    private var commandFailed = false
    /// Commands (and clips) that failed in this session: the exit status is 1 when there was any.
    private var failures = 0
    /// The engine's failure reports already counted, so each is counted once.
    private var seenOutcome = EngineOutcome()

    /// A shell on a wired rig. `color` turns on colour in the prompt (off for NO_COLOR and non-terminals);
    /// `errorPolicy` is `--on-error`; `liveStatusWhileWaiting` lets a `wait` redraw the status line (the composition
    /// root allows it on a terminal with the real clock).
    public init(controller: RigController, runner: ScriptRunner, serialContext: any SerialContext, reader: any LineReader,
                interactive: Bool, color: Bool, errorPolicy: ShellErrorPolicy = .continue,
                liveStatusWhileWaiting: Bool = false, quiet: Bool = false, startInKeys: Bool = false,
                surroundings: Surroundings) {
        self.startInKeys = startInKeys
        hotkeys = HotkeyMap(rig: controller.rig)
        self.controller = controller
        engine = SerialContextBound.confining(controller, to: serialContext)
        signals = ShellSignalInbox(serialContext: serialContext, interruptRead: surroundings.interruptRead)
        self.runner = runner
        self.serialContext = serialContext
        self.reader = reader
        self.surroundings = surroundings
        self.interactive = interactive
        self.errorPolicy = errorPolicy
        self.liveStatusWhileWaiting = liveStatusWhileWaiting
        self.quiet = quiet
        parser = CommandParser(rig: controller.rig)
        formatter = PromptFormatter(color: color)
        exitGuard = ExitGuard(interactive: interactive)
        let completer = ShellCompleter(rig: controller.rig)
        reader.completer = { completer.complete($0) }
    }

    /// How an event of the engine is shown (above the prompt on a terminal, in the transcript on a pipe), with any
    /// control character in it made visible (`VisibleText`): a remote's mark cannot reach the terminal raw.
    public static func eventLine(_ text: String) -> String { "* " + VisibleText.escaped(text, keepingLineFeeds: true) }

    // MARK: The loop

    /// Reads and carries out commands until `quit`, end of input, a signal that ends the session, or (with
    /// `--on-error stop`) a failed command; a recording is always stopped and saved first. Returns the process's
    /// exit status: 128 + N for a signal N, else 1 when any command or clip failed, else 0.
    public func run() -> Int32 {
        if startInKeys && interactive {
            _ = perform("keys")
        } else if startInKeys {
            reader.printError("--keys needs a terminal: standard input is not one; reading commands line by line")
        }
        while true {
            if let status = actOnSignals() { return status }
            let prompt = self.prompt()
            guard let line = reader.readLine(prompt: prompt) else {
                if let status = actOnSignals() { return status }
                return endSession(before: "end of input: stopping and saving the clip")
            }
            // A read cut short by a signal returns "" without consuming a line.
            if !(line.isEmpty && signalsPending) { lineNumber += 1 }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if !interactive && !quiet { say(prompt + trimmed) }
            reader.addHistory(trimmed)
            _ = exitGuard.handle(.commandTyped)
            currentCommand = trimmed
            commandFailed = false
            let quits = perform(trimmed)
            noticeEngineFailures()
            currentCommand = nil
            if quits { return endSession(before: "stopping and saving the clip before quitting") }
            if commandFailed && errorPolicy == .stop {
                reader.printError("--on-error stop: ending the session at the first failed command")
                return endSession(before: "stopping and saving the clip")
            }
        }
    }

    /// A signal, on the shell's own thread (a reader's end of input in a test): queued like one from another
    /// thread, which goes through `signals`.
    public func receive(_ signal: ExitGuard.Signal) {
        signals.receive(signal)
    }

    /// The prompt for the live state: `● REC scene 3 00:01:23.4 main 2x > `.
    public func prompt() -> String {
        Self.prompt(engine: engine, formatter: formatter, interactive: interactive)
    }

    /// The prompt made from `engine`'s status on its serial context; callable from any thread.
    private static func prompt(engine: SerialContextBound<RigController>, formatter: PromptFormatter,
                               interactive: Bool) -> String {
        let status = engine.serialContext.perform { engine.value.status }
        // The time left, like the meter, is for a person at a terminal (a piped transcript does not vary with the disk).
        let timeLeft = interactive ? formatter.timeLeftMark(status.timeLeft) : ""
        return timeLeft + formatter.prompt(state: status.state, scene: status.scene, timer: status.timer, lens: status.lens,
                                // The meter is for a person at a terminal; a piped transcript stays a record of commands.
                                digitalZoom: status.digitalZoom, level: interactive ? status.audioPeak : nil,
                                countdown: status.countdown, voices: interactive ? status.voices : [],
                                live: status.live)
    }

    // MARK: Commands

    /// Carries out one typed line; returns true when it ends the session (`quit`).
    func perform(_ line: String) -> Bool {
        let command: Command
        switch parser.parse(line) {
        case .failure(let failure):
            fail(failure.message)
            return false
        case .success(let parsed):
            command = parsed
        }
        switch command {
        case .quit:
            return true
        case .keys:
            keysMode()
        case .help(let topic):
            say(topic.map(ShellHelp.details) ?? ShellHelp.overview, evenWhenQuiet: true)
        case .devices:
            say(surroundings.devices(), evenWhenQuiet: true)
        case .last(let play):
            last(play: play)
        case .run(let name):
            runScript(named: name)
        case .wait(let duration):
            let answer = whileBusy { withLiveStatus(waiting: duration) { runner.perform(command) } }
            // A wait cut short by Ctrl-C is what the user asked for; one cut short by a clip PauseCam had to stop
            // is counted when the engine's failure is noticed. Neither is the wait's own failure.
            if answer.ok || signalsPending || interruption != nil { say(answer.message) } else { fail(answer.message) }
        case .stop:
            let answer = runner.perform(command)
            reply(answer)
            if answer.ok { whileBusy { handOverStoppedClip() } }
        default:
            reply(runner.perform(command))
        }
        return false
    }

    /// The hotkey mode: single keys carry out their command lines (`HotkeyMap`) until `q`, Ctrl-D, or a signal
    /// (which the main loop then acts on). The terminal is put back on every way out. Without a terminal on
    /// standard input nothing changes: keys cannot be read from a pipe.
    private func keysMode() {
        guard interactive, reader.beginKeys() else {
            fail("keys needs a terminal: standard input is not one, so single keys cannot be read; type commands")
            return
        }
        defer { reader.endKeys() }
        say(hotkeys.description, evenWhenQuiet: true)
        while !signalsPending {
            switch reader.readKey(prompt: { "keys " + prompt() }) {
            case .interrupted, .endOfInput:
                say("left the keys mode")
                return
            case .key(let key):
                if key == HotkeyMap.leaveKey {
                    say("left the keys mode")
                    return
                }
                guard let line = hotkeys.line(for: key) else {
                    say("key \(HotkeyMap.name(of: key)) does nothing here (q leaves the keys mode)")
                    continue
                }
                _ = exitGuard.handle(.commandTyped)
                currentCommand = line
                commandFailed = false
                say("[\(HotkeyMap.name(of: key))] \(line)")
                _ = perform(line)
                noticeEngineFailures()
                currentCommand = nil
            }
        }
    }

    private func reply(_ reply: RigController.Reply) {
        if reply.ok { say(reply.message) } else { fail(reply.message) }
    }

    /// Prints a result. Replies echo what the user typed (a mark's text, a chapter's name), so control characters
    /// are shown visibly, on a terminal and on a pipe alike; the line feeds of several lines are kept.
    /// Under `--quiet` only what was asked for (`evenWhenQuiet`) is printed.
    private func say(_ text: String, evenWhenQuiet: Bool = false) {
        guard !quiet || evenWhenQuiet else { return }
        reader.printAbove(VisibleText.escaped(text, keepingLineFeeds: true))
    }

    /// Reports a failed command: on standard error, and in a piped session with the line number and the command,
    /// so a log of errors alone says where each came from.
    private func fail(_ message: String, echo: Bool = true) {
        commandFailed = true
        failures += 1
        guard echo else { return }
        if interactive {
            reader.printError(VisibleText.escaped("error: \(message)", keepingLineFeeds: true))
        } else {
            let context = currentCommand.map { "line \(lineNumber): \($0): " } ?? ""
            reader.printError(VisibleText.escaped("error: \(context)\(message)", keepingLineFeeds: true))
        }
    }

    private func whileBusy<T>(_ work: () -> T) -> T {
        signals.setBusy(true)
        defer { signals.setBusy(false) }
        return work()
    }

    /// Runs `work` (a wait of `duration`) with a status line that keeps the timer moving, when allowed.
    private func withLiveStatus<T>(waiting duration: MediaTime, _ work: () -> T) -> T {
        guard liveStatusWhileWaiting else { return work() }
        let clock = serialContext.clock
        let start = clock.now()
        let engine = self.engine, formatter = self.formatter, interactive = self.interactive
        reader.beginLiveStatus {
            formatter.waiting(prompt: Self.prompt(engine: engine, formatter: formatter, interactive: interactive),
                              elapsed: clock.now() - start, total: duration)
        }
        defer { reader.endLiveStatus() }
        return work()
    }

    private var signalsPending: Bool { signals.hasPending }

    private var state: Session.State {
        let controller = self.controller
        return serialContext.perform { controller.status.state }
    }

    private var countingDown: Bool {
        let controller = self.controller
        return serialContext.perform { controller.status.countdown != nil }
    }

    private var interruption: String? {
        let controller = self.controller
        return serialContext.perform { controller.clips.outcome.interruption }
    }

    private func runScript(named name: String) {
        guard let script = controller.rig.script(named: name) else { return }
        // Every script records its own clip and stops it: run during a clip would end the user's clip.
        guard state == .idle || state == .finished else {
            fail("a clip is being recorded; `run` records a clip of its own — `stop` this one first")
            return
        }
        say("running script \"\(script.name)\" (\(DurationParser.clockString(script.scriptedTime)) scripted)")
        let completed = whileBusy {
            runner.run(script) { step, reply in
                if case .wait = step, reply.ok { return }
                if reply.ok {
                    say("  \(CommandParser.line(for: step)): \(reply.message)")
                } else {
                    fail("step \(CommandParser.line(for: step)): \(reply.message)")
                }
            }
        }
        if !completed {
            let recording = state == .recording || state == .paused
            say("script \"\(script.name)\" stopped" + (recording ? "; the recording goes on (stop saves it)" : ""))
        }
        if state == .stopping { whileBusy { _ = runner.finishClip() } }
    }

    /// Lets the samples captured before a `stop` arrive, then hands the clip to the background finisher: the
    /// prompt comes back at once, and a "saved" event follows when the movie is written.
    private func handOverStoppedClip() {
        let controller = self.controller
        serialContext.advance(until: serialContext.clock.now() + RigController.stopGrace)
        serialContext.perform { controller.finalizeIfStopping() }
    }

    /// Says which stopped clips are still being saved (`why` ends the sentence), then finishes the clip recording
    /// now, if any, and waits for every clip to be saved.
    private func waitForSaving(_ why: String, finishingCurrent: Bool = false) {
        let controller = self.controller
        if !finishingCurrent && state == .stopping { whileBusy { handOverStoppedClip() } }
        let saving = controller.clipsBeingSaved.map { PathText.lastComponent(of: $0) }
        if !saving.isEmpty { say("waiting for \(saving.joined(separator: ", ")) to be saved \(why)…") }
        if finishingCurrent { whileBusy { _ = runner.finishClip() } }
        // Also when no movie is being saved: the finisher's worker may still write or remove a sidecar (a clip
        // whose only take was thrown away), which must be done before the process ends.
        whileBusy { controller.waitForSavedClips() }
        guard !saving.isEmpty else { return }
        noticeEngineFailures()
    }

    private func last(play: Bool) {
        let controller = self.controller
        waitForSaving("first")
        guard let clip = serialContext.perform({ controller.clips.outcome.savedClip }) else {
            say("no clip saved yet in this session; record one first", evenWhenQuiet: true)
            return
        }
        let sidecar = clip.sidecar
        var lines = [clip.moviePath,
                     "  duration \(String(format: "%.3f", sidecar.duration)) s · \(sidecar.scenes.count) scene(s) · "
                     + "\(sidecar.video.framesDropped) dropped frame(s)"]
        lines.append("  thumbnail \(clip.thumbnailPath ?? "none")")
        if play { lines.append(surroundings.openMovie(clip.moviePath)) }
        say(lines.joined(separator: "\n"), evenWhenQuiet: true)
    }

    // MARK: Failures the engine reports

    /// What the engine says went wrong with clips, as last seen.
    private struct EngineOutcome: Equatable {
        var interruption: String?
        var failure: String?
        var nothingRecorded: String?
    }

    /// Counts (once each) the clip failures the engine reported since the last look — a clip it had to stop (full
    /// disk), one it could not finish, one with nothing recorded — as failures of the command that led to them.
    /// The engine's own event already told a person at a terminal; a piped session also gets an error line.
    private func noticeEngineFailures() {
        let controller = self.controller
        let now = serialContext.perform {
            EngineOutcome(interruption: controller.clips.outcome.interruption, failure: controller.clips.outcome.failure,
                          nothingRecorded: controller.clips.outcome.nothingRecorded)
        }
        defer { seenOutcome = now }
        if let text = now.interruption, text != seenOutcome.interruption {
            fail("the recording was stopped: \(text)", echo: !interactive)
        }
        if let text = now.failure, text != seenOutcome.failure {
            fail("the clip could not be finished: \(text)", echo: !interactive)
        }
        if let text = now.nothingRecorded, text != seenOutcome.nothingRecorded {
            fail(text, echo: !interactive)
        }
    }

    // MARK: Ways out

    /// Stops and saves a clip that is recording, paused or being stopped; says `message` first when there is one.
    private func stopAndSave(before message: String) {
        let current = state
        let recording = current == .recording || current == .paused || current == .stopping
        if recording { say(message) }
        waitForSaving("before quitting", finishingCurrent: recording)
    }

    /// Ends the session normally (quit, end of input, `--on-error stop`): saves the clip, then gives the status —
    /// a signal's if one came while saving, else 1 when anything failed, else 0.
    private func endSession(before message: String) -> Int32 {
        stopAndSave(before: message)
        noticeEngineFailures()
        if let signal = signals.oldest { return signal.exitStatus }
        return failures > 0 ? 1 : 0
    }

    /// Acts on the signals received since the last look; returns an exit status when one ends the session.
    private func actOnSignals() -> Int32? {
        while true {
            guard let (signal, wasBusy) = signals.takeOldest() else { return nil }
            // Ctrl-C during the countdown before a clip cancels it, as `stop` does: nothing was recorded yet.
            if signal == .interrupt && countingDown {
                reply(runner.perform(.stop))
                continue
            }
            let current = state
            let recording = current == .recording || current == .paused
            let action = exitGuard.handle(.signal(signal, recording: recording, busy: wasBusy))
            switch action {
            case .none:
                break
            case .say(let text):
                say(text)
            case .stopAndQuit(let message, let status):
                say(message)
                waitForSaving("before quitting",
                              finishingCurrent: current == .recording || current == .paused || current == .stopping)
                return status
            }
        }
    }
}
