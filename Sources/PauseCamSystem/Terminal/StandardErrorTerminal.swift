#if canImport(Glibc)
import Glibc
#endif

/// Whether standard error is a terminal: the progress line is drawn only there, never into a log file or a pipe.
/// (Writing goes through `StandardStreamWriter.error`, the one EPIPE-safe writer.)
public enum StandardErrorTerminal {
    /// True when file descriptor 2 is a terminal. The corresponding C function is `isatty`.
    public static var isTerminal: Bool { isatty(2) == 1 }
}
