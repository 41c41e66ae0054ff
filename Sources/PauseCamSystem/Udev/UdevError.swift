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

    public var description: String {
        "\(call) failed: \(String(cString: strerror(code))) (errno \(code)); camera discovery needs libudev and "
            + "a readable /sys (and, for hot-plug, the udev netlink socket)"
    }
}
