/// `preroll:` at the top level: `preroll: 3s`, or `preroll: {length: 3s, memory: 256 MiB}` to state the memory the
/// kept frames may take (see `Rig.Preroll`).
extension RigDecoder {
    /// The keys of `preroll:`'s mapping form.
    enum PrerollKey: String, RigKey {
        case length, memory
    }

    /// The longest preroll: the ring keeps raw frames in memory, and past half a minute no budget holds them.
    static let prerollLengthRange = MediaTime.milliseconds(100)...MediaTime.seconds(30)
    /// The memory a preroll may be given, in MiB: from enough for a small camera's second to 16 GiB.
    static let prerollMemoryRange = 16...16_384

    /// `group` is true when the rig records with a group: a group's commands apply on every member at one slot,
    /// and a member's kept frames are its own, so the two are refused together.
    mutating func preroll(_ node: YAMLNode, _ path: KeyPath, group: Bool) -> Rig.Preroll? {
        if group {
            report("a group's record and resume start every member at one slot; preroll would start each at its "
                   + "own kept frames, so a rig with group: cannot have preroll: (remove one of them)",
                   at: node.mark, path: path)
            return nil
        }
        if node.pairs == nil { return prerollLength(node, path).map { Rig.Preroll(length: $0) } }
        guard let fields = fields(node, path, PrerollKey.self, required: [.length]) else { return nil }
        guard let lengthNode = fields[.length],
              let length = prerollLength(lengthNode, path.child(PrerollKey.length)) else { return nil }
        var preroll = Rig.Preroll(length: length)
        if let memoryNode = fields[.memory] {
            guard let mebibytes = prerollMemory(memoryNode, path.child(PrerollKey.memory)) else { return nil }
            preroll.memoryBytes = mebibytes * 1024 * 1024
        }
        return preroll
    }

    private mutating func prerollLength(_ node: YAMLNode, _ path: KeyPath) -> MediaTime? {
        guard let length = duration(node, path, max: Self.prerollLengthRange.upperBound, positive: true) else {
            return nil
        }
        guard length >= Self.prerollLengthRange.lowerBound else {
            report("preroll \(node.text ?? "") is shorter than a few frames; write "
                   + "\(CommandParser.formatDuration(Self.prerollLengthRange.lowerBound)) to "
                   + "\(CommandParser.formatDuration(Self.prerollLengthRange.upperBound))", at: node.mark, path: path)
            return nil
        }
        return length
    }

    /// `256 MiB`, `1GiB`: whole mebibytes or gibibytes.
    private mutating func prerollMemory(_ node: YAMLNode, _ path: KeyPath) -> Int? {
        guard let text = self.text(node, path) else { return nil }
        let range = Self.prerollMemoryRange
        let compact = text.filter { !$0.isWhitespace }
        var mebibytes: Int?
        if compact.hasSuffix("MiB"), let n = RigValueParser.integer(compact.dropLast(3)) { mebibytes = n }
        if compact.hasSuffix("GiB"), let n = RigValueParser.integer(compact.dropLast(3)), n <= range.upperBound / 1024 {
            mebibytes = n * 1024
        }
        guard let mebibytes, range.contains(mebibytes) else {
            report("expected a memory from \(range.lowerBound) MiB to \(range.upperBound / 1024) GiB (e.g. 256 MiB), "
                   + "found \"\(text)\"", at: node.mark, path: path)
            return nil
        }
        return mebibytes
    }
}
