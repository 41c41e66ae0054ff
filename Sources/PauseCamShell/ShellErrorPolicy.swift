/// What a failed command does to a shell session (`pausecam shell RIG --on-error continue|stop`).
///
/// Either way the session's exit status is 1 when any command failed, as a shell script's `set -e`-less run would
/// want to know; `stop` also ends the session at the first failure (saving a clip that is recording), for callers
/// such as cron jobs and CI that pipe commands in and must not record on after a mistake.
public enum ShellErrorPolicy: String, Sendable, Equatable, CaseIterable {
    /// Say what failed and read the next command (the default).
    case `continue`
    /// Say what failed, stop and save any clip, and end the session with status 1.
    case stop

    /// The policy named by `--on-error`'s value; nil for anything else.
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}
