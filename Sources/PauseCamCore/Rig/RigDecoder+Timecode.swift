/// `timecode: {start: time_of_day | grid | "01:00:00:00"}`: where every movie's timecode track starts (see
/// `TimecodeStart`); without it, the time of day.
extension RigDecoder {
    /// The keys of `timecode:`.
    enum TimecodeKey: String, RigKey {
        case start
    }

    /// `timecode:`; `nil` when it is wrong (the problem reported). A fixed start must be a label the rig's output
    /// rate has (`01:01:00;00` does not exist in 29.97 drop-frame timecode).
    mutating func timecode(_ node: YAMLNode, _ path: KeyPath, rate: FrameRate) -> TimecodeStart? {
        guard let f = fields(node, path, TimecodeKey.self, required: [.start]), let startNode = f[.start],
              let written = text(startNode, path.child(TimecodeKey.start)) else { return nil }
        switch written {
        case "time_of_day": return .timeOfDay
        case "grid": return .grid
        default:
            guard written.contains(":") || written.contains(";") else {
                report("\"\(written)\" is not one of \(TimecodeStart.words.joined(separator: ", ")) or a timecode "
                       + "such as \"01:00:00:00\"" + suggestion(written, TimecodeStart.words), at: startNode.mark,
                       path: path.child(TimecodeKey.start))
                return nil
            }
            do {
                _ = try Timecode(rate: rate).frame(parsing: written)
            } catch {
                report(error.description, at: startNode.mark, path: path.child(TimecodeKey.start))
                return nil
            }
            return .fixed(label: written)
        }
    }
}
