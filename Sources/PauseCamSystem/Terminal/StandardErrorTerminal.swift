#if canImport(Glibc)
import Glibc
#endif

/// Standard error as a terminal, for the progress line: whether it is one, and a raw write that never traps.
///
/// The progress line is drawn only on a terminal (never into a log file or a pipe), and a write error (a closed
/// terminal) only means the line is not seen: it must not end the recording, so errors are ignored here.
public enum StandardErrorTerminal {
    /// True when file descriptor 2 is a terminal. The corresponding C function is `isatty`.
    public static var isTerminal: Bool { isatty(2) == 1 }

    /// Writes `text` to file descriptor 2, retrying on `EINTR` and after partial writes; gives up silently on any
    /// other error. The corresponding C function is `write`.
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
