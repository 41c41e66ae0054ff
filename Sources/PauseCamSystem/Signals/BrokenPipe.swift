#if canImport(Glibc)
import Glibc
#endif

/// SIGPIPE's default action kills the process on a write to a pipe whose reader is gone: `pausecam run … | head -1`
/// died with status 141 in the middle of the script and left only the `.partial`, no movie, no sidecar. With the
/// signal ignored, such a write fails with EPIPE instead, which `StandardStreamWriter` treats as "stop writing
/// this stream" while the recording goes on.
public enum BrokenPipe {
    /// Ignores SIGPIPE for the whole process; call it first thing in `main`. (An ignored signal stays ignored across
    /// `exec`, so a program PauseCam starts may inherit it; the only one is `xdg-open`, whose output goes to
    /// /dev/null.) The corresponding C call is `signal(SIGPIPE, SIG_IGN)`.
    public static func ignore() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
