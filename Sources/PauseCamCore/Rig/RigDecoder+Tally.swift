/// `tally:`: where each lens's tally goes — TSL UMD 5.0 over UDP (`tsl:`) and GPIO lamps (`gpio:`).
extension RigDecoder {
    /// The keys of `tally:`.
    enum TallyKey: String, RigKey {
        case tsl, gpio
    }

    /// The keys of `tally.tsl:`.
    enum TallyTSLKey: String, RigKey {
        case send, screen, indices
    }

    /// The keys of `tally.gpio:`.
    enum TallyGPIOKey: String, RigKey {
        case chip, lines
    }

    /// `tally: {tsl: {send: "127.0.0.1:8900", indices: {wide: 1}}, gpio: {chip: gpiochip0, lines: {main: 17}}}`;
    /// `nil` when absent or wrong (every problem reported).
    mutating func tally(_ node: YAMLNode, _ path: KeyPath, lenses: [String]) -> TallySettings? {
        guard let f = fields(node, path, TallyKey.self) else { return nil }
        var settings = TallySettings()
        if let n = f[.tsl] { settings.tsl = tallyTSL(n, path.child(TallyKey.tsl), lenses: lenses) }
        if let n = f[.gpio] { settings.gpio = tallyGPIO(n, path.child(TallyKey.gpio), lenses: lenses) }
        guard settings.tsl != nil || settings.gpio != nil else {
            if f[.tsl] == nil && f[.gpio] == nil {
                report("expected tsl: or gpio: (or both)", at: node.mark, path: path)
            }
            return nil
        }
        return settings
    }

    private mutating func tallyTSL(_ node: YAMLNode, _ path: KeyPath, lenses: [String]) -> TallySettings.TSL? {
        guard let f = fields(node, path, TallyTSLKey.self, required: [.indices]) else { return nil }
        var destination = TallySettings.TSL.defaultDestination
        if let n = f[.send], let written = text(n, path.child(TallyTSLKey.send)) {
            guard let address = MonitorListenAddress(written), !address.isIPv6, address.port > 0 else {
                report("\"\(written)\" is not an IPv4 address and a port from 1 to 65535, such as 127.0.0.1:8900",
                       at: n.mark, path: path.child(TallyTSLKey.send))
                return nil
            }
            destination = address
        }
        var screen: UInt16 = 0
        if let n = f[.screen] {
            guard let s = integer(n, path.child(TallyTSLKey.screen), in: TallySettings.TSL.indexRange,
                                  what: "a screen index from 0 to 65534") else { return nil }
            screen = UInt16(s)
        }
        guard let n = f[.indices] else { return nil }
        let entries = perLens(n, path.child(TallyTSLKey.indices), lenses: lenses, range: TallySettings.TSL.indexRange,
                              what: "a TSL display index from 0 to 65534")
        guard let entries else { return nil }
        return TallySettings.TSL(destination: destination, screen: screen,
                                 indices: entries.map { .init(lens: $0.lens, index: UInt16($0.value)) })
    }

    private mutating func tallyGPIO(_ node: YAMLNode, _ path: KeyPath, lenses: [String]) -> TallySettings.GPIO? {
        guard let f = fields(node, path, TallyGPIOKey.self, required: [.chip, .lines]) else { return nil }
        let chip = f[.chip].flatMap { text($0, path.child(TallyGPIOKey.chip)) }
        if let chip, let n = f[.chip], chip.contains("..") || (chip.contains("/") && !chip.hasPrefix("/dev/")) {
            report("\"\(chip)\" is not a GPIO chip's name (gpiochip0) or device (/dev/gpiochip0)", at: n.mark,
                   path: path.child(TallyGPIOKey.chip))
            return nil
        }
        guard let n = f[.lines], let entries = perLens(n, path.child(TallyGPIOKey.lines), lenses: lenses,
                                                        range: TallySettings.GPIO.offsetRange,
                                                        what: "a line offset from 0 to 1023") else { return nil }
        var seen: [Int: String] = [:]
        for entry in entries {
            if let other = seen[entry.value] {
                report("line \(entry.value) is already \(other)'s; each lens needs a line of its own", at: entry.mark,
                       path: path.child(TallyGPIOKey.lines).child(entry.lens))
                return nil
            }
            seen[entry.value] = entry.lens
        }
        guard let chip else { return nil }
        return TallySettings.GPIO(chip: chip, lines: entries.map { .init(lens: $0.lens, offset: $0.value) })
    }

    /// A mapping of lens names to whole numbers in `range`; unknown lenses and numbers out of range reported.
    private mutating func perLens(_ node: YAMLNode, _ path: KeyPath, lenses: [String], range: ClosedRange<Int>,
                                  what: String) -> [(lens: String, value: Int, mark: SourceMark)]? {
        guard let pairs = namedEntries(node, path, what: "lens names") else { return nil }
        var result: [(lens: String, value: Int, mark: SourceMark)] = []
        var ok = true
        for (lens, keyNode, value) in pairs {
            guard lenses.contains(lens) else {
                report("unknown lens \"\(lens)\"" + suggestion(lens, lenses, orList: true), at: keyNode.mark, path: path)
                ok = false
                continue
            }
            guard let number = integer(value, path.child(lens), in: range, what: what) else { ok = false; continue }
            result.append((lens, number, keyNode.mark))
        }
        if ok && result.isEmpty { report("expected at least one lens", at: node.mark, path: path) }
        return ok && !result.isEmpty ? result : nil
    }
}
