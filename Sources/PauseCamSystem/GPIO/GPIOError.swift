#if canImport(Glibc)
import Glibc
#endif

/// Why a GPIO chip or line could not be used: the libgpiod call, the chip, the line, and the errno's meaning, with
/// what to do.
public struct GPIOError: Error, CustomStringConvertible, Equatable {
    public var call: String
    public var chip: String
    public var line: Int?
    public var failure: Errno

    public var description: String {
        let hint: String
        switch failure.rawValue {
        case ENOENT: hint = "no such GPIO chip; `gpiodetect` lists this machine's chips"
        case EACCES, EPERM: hint = "add your user to the group that owns /dev/gpiochip* (gpio on Raspberry Pi OS)"
        case EBUSY: hint = "another program holds the line; `gpioinfo` shows its consumer"
        case EINVAL: hint = "the chip has no such line; `gpioinfo` lists its lines"
        default: hint = "check the chip and line in the rig's tally.gpio"
        }
        let line = self.line.map { " line \($0)" } ?? ""
        return "\(call)(\(chip)\(line)): \(failure.message) (\(failure.name)); \(hint)"
    }
}
