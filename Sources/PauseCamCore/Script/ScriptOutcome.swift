/// How a scene script ended, so `pausecam run` can choose its exit status and say why (`set -e` semantics).
public enum ScriptOutcome: Sendable, Equatable {
    /// Every step ran. With `on_error: continue` (or `--keep-going`) the failed steps are listed; none otherwise.
    case completed(failedSteps: [ScriptStepFailure])
    /// A step failed and the script's policy was to stop there.
    case stopped(at: ScriptStepFailure)
    /// A `wait` was interrupted (a signal, Ctrl-C).
    case interrupted
    /// PauseCam stopped the clip itself (full disk, failed write); the script could not go on.
    case clipInterrupted(reason: String)

    /// True when every step ran and none failed.
    public var succeeded: Bool { self == .completed(failedSteps: []) }
}

/// One failed step: where it is in the rig file, what it said, and what went wrong.
public struct ScriptStepFailure: Sendable, Equatable, CustomStringConvertible {
    /// 0-based index into the script's steps.
    public var index: Int
    /// Its position in the rig file; `nil` for a script built in code.
    public var mark: SourceMark?
    /// The step as a command line (`record Intro`).
    public var step: String
    /// The command's reply.
    public var message: String

    public init(index: Int, mark: SourceMark?, step: String, message: String) {
        self.index = index
        self.mark = mark
        self.step = step
        self.message = message
    }

    /// `rigs/desk.yaml:42: step "record Intro" failed: cannot start recording: …`; a script built in code has no
    /// file: `step 3 "record Intro" failed: …`.
    public var description: String {
        guard let mark else { return "step \(index + 1) \"\(step)\" failed: \(message)" }
        return "\(mark.file):\(mark.line): step \"\(step)\" failed: \(message)"
    }
}
