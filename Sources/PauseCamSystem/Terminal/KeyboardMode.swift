#if canImport(Glibc)
import Glibc
#endif

/// The terminal of standard input switched to single keys: no line buffering (a key arrives without Enter) and no
/// echo, for the shell's hotkey mode. Signal keys stay on (Ctrl-C is still SIGINT, handled by the shell's signal
/// watcher), so the way out of a stuck mode is the usual one. `restore()` puts back the settings found at `enter`;
/// the caller restores on every way out of the mode.
public struct KeyboardMode: Sendable {
    /// The settings before the switch.
    private let saved: termios
    private let descriptor: Int32

    /// Switches `descriptor` (standard input) to single keys; `nil` when it is not a terminal.
    public static func enter(descriptor: Int32 = 0) -> KeyboardMode? {
        guard let saved = attributes(descriptor) else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard setAttributes(descriptor, raw) else { return nil }
        return KeyboardMode(saved: saved, descriptor: descriptor)
    }

    /// Puts the terminal back as `enter` found it.
    public func restore() {
        _ = Self.setAttributes(descriptor, saved)
    }

    /// The terminal settings of `descriptor`, or `nil` when it is not a terminal. The corresponding C function is
    /// `tcgetattr`.
    static func attributes(_ descriptor: Int32) -> termios? {
        var settings = termios()
        return tcgetattr(descriptor, &settings) == 0 ? settings : nil
    }

    /// Applies `settings` to `descriptor` now, retrying EINTR. The corresponding C function is `tcsetattr`.
    static func setAttributes(_ descriptor: Int32, _ settings: termios) -> Bool {
        var settings = settings
        return (try? retryingOnInterrupt { tcsetattr(descriptor, TCSANOW, &settings) }.get()) != nil
    }
}
