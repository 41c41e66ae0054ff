import Foundation

/// A libudev call failed. libudev reports failure as NULL or a negative errno; the text names the call and the
/// errno's meaning, and says what to check.
public struct UdevError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The C function, e.g. "udev_monitor_enable_receiving".
    public var call: String
    /// The errno (positive).
    public var code: Int32

    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// The failure of a libudev call that returned NULL: the errno it left says why, or `fallback` when it left
    /// none (libudev does not set errno on every path). Call it straight after the failed call.
    static func afterNull(call: String, unset fallback: Errno) -> UdevError {
        let current = Errno.current
        return UdevError(call: call, code: current.rawValue == 0 ? fallback.rawValue : current.rawValue)
    }

    public var description: String {
        "\(call) failed: \(Errno(rawValue: code).message) (errno \(code)); camera discovery needs libudev and "
            + "a readable /sys (and, for hot-plug, the udev netlink socket)"
    }
}
