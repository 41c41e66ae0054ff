/// Tally lamps on GPIO lines: each lens's line high while the lens is on program, low otherwise. Lines are driven
/// through the `TallyLampLines` port (libgpiod in PauseCamSystem, a fake in tests) and only when their level
/// changes; the first board drives every line, so a line left high by an earlier run goes low.
///
/// Used on the serial context only.
public final class TallyLamps {
    private let lines: any TallyLampLines
    private let plan: [TallySettings.GPIO.Line]
    /// Each line's level as last driven, by offset.
    private var levels: [Int: Bool] = [:]

    public init(settings: TallySettings.GPIO, lines: any TallyLampLines) {
        self.lines = lines
        plan = settings.lines
    }

    /// The level each line should have for `board`, in the rig's order.
    public static func levels(for board: TallyBoard, lines: [TallySettings.GPIO.Line]) -> [(offset: Int, high: Bool)] {
        lines.map { ($0.offset, board.state(of: $0.lens) == .program) }
    }

    /// Drives every line whose level `board` changes; a line that fails is tried again at the next board.
    /// Returns the errors, one per line that failed.
    @discardableResult
    public func show(_ board: TallyBoard) -> [any Error] {
        var errors: [any Error] = []
        for (offset, high) in Self.levels(for: board, lines: plan) where levels[offset] != high {
            do {
                try lines.drive(offset: offset, high: high)
                levels[offset] = high
            } catch {
                levels[offset] = nil
                errors.append(error)
            }
        }
        return errors
    }

    /// Every line low (the rig stops).
    public func darken() {
        for line in plan {
            try? lines.drive(offset: line.offset, high: false)
            levels[line.offset] = false
        }
    }
}
