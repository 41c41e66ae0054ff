import CGpiod
#if canImport(Glibc)
import Glibc
#endif
import PauseCamCore

/// One GPIO chip through libgpiod 1.6 (the v1 API), its lines requested as outputs (consumer `pausecam`, starting
/// low) the first time each is driven: the tally lamps' port (`TallyLampLines`). The chip and every requested line
/// are released by `close()` (each line low first).
///
/// Thread contract: used from one thread at a time (the serial context).
public final class GPIOChip: TallyLampLines {
    /// What the rig named: `gpiochip0`, `/dev/gpiochip0` or the chip's label.
    public let name: String
    private var chip: OpaquePointer?
    /// The lines requested so far, by offset.
    private var lines: [Int: OpaquePointer] = [:]

    /// Opens the chip `name` (a name, a path, a number or a label). The corresponding C function is
    /// `gpiod_chip_open_lookup`.
    public init(name: String) throws(GPIOError) {
        self.name = name
        guard let chip = gpiod_chip_open_lookup(name) else {
            throw GPIOError(call: "gpiod_chip_open_lookup", chip: name, line: nil, failure: .current)
        }
        self.chip = chip
    }

    deinit { close() }

    /// Sets line `offset` high or low, requesting it as an output first. The corresponding C functions are
    /// `gpiod_chip_get_line`, `gpiod_line_request_output` and `gpiod_line_set_value`.
    public func drive(offset: Int, high: Bool) throws {
        let line = try requested(offset, initial: high)
        guard gpiod_line_set_value(line, high ? 1 : 0) == 0 else {
            throw GPIOError(call: "gpiod_line_set_value", chip: name, line: offset, failure: .current)
        }
    }

    private func requested(_ offset: Int, initial: Bool) throws(GPIOError) -> OpaquePointer {
        if let line = lines[offset] { return line }
        guard let chip else {
            throw GPIOError(call: "gpiod_chip_get_line", chip: name, line: offset, failure: .badFileDescriptor)
        }
        guard offset >= 0, let line = gpiod_chip_get_line(chip, UInt32(offset)) else {
            throw GPIOError(call: "gpiod_chip_get_line", chip: name, line: offset, failure: .current)
        }
        guard gpiod_line_request_output(line, "pausecam", initial ? 1 : 0) == 0 else {
            throw GPIOError(call: "gpiod_line_request_output", chip: name, line: offset, failure: .current)
        }
        lines[offset] = line
        return line
    }

    /// Each requested line low and released, then the chip closed. The corresponding C functions are
    /// `gpiod_line_release` and `gpiod_chip_close`.
    public func close() {
        for line in lines.values {
            _ = gpiod_line_set_value(line, 0)
            gpiod_line_release(line)
        }
        lines = [:]
        if let chip { gpiod_chip_close(chip) }
        chip = nil
    }
}
