/// When the tally is sent: at once when a lens's tally changed, and again every `period` when nothing did (UDP and
/// a receiver started late need it). A value type with no clock: the caller checks it with the time at each tick.
public struct TallyRepeater: Sendable, Equatable {
    /// Why a board is to be sent.
    public enum Reason: Sendable, Equatable {
        /// The first board, or one that differs from the last sent.
        case changed
        /// Nothing changed for `period`.
        case refresh
    }

    public let period: MediaTime
    /// The board last sent and when; `nil` before the first.
    public private(set) var last: (board: TallyBoard, time: MediaTime)?

    public init(period: MediaTime = TallySettings.refreshPeriod) { self.period = period }

    /// Whether `board`, seen at `time`, is to be sent, and why; remembers it as sent when it is.
    public mutating func check(_ board: TallyBoard, at time: MediaTime) -> Reason? {
        guard let last else {
            self.last = (board, time)
            return .changed
        }
        if board != last.board {
            self.last = (board, time)
            return .changed
        }
        guard time >= last.time + period else { return nil }
        self.last = (board, time)
        return .refresh
    }

    public static func == (a: TallyRepeater, b: TallyRepeater) -> Bool {
        a.period == b.period && a.last?.board == b.last?.board && a.last?.time == b.last?.time
    }
}
