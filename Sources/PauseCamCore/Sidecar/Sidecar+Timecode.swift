/// The sidecar's account of a movie's timecode: its first frame's label as the movie's timecode track (`tmcd`) and
/// the exports' source timecode give it, and where it came from.
extension Sidecar {
    /// A movie's timecode (the program's at the top level, an ISO's in its `iso` entry, at the ISO's own rate).
    public struct Timecode: Codable, Sendable, Equatable {
        /// The first frame's label, `HH:MM:SS:FF` (`HH:MM:SS;FF` for drop-frame).
        public var start: String
        /// The same label as a frame count from `00:00:00:00` at the movie's rate (what an export adds frames to).
        public var startFrame: Int64
        /// True at 29.97 and 59.94: drop-frame labels.
        public var dropFrame: Bool
        /// `time_of_day`, `grid` or `fixed` (the rig's `timecode.start`).
        public var source: String

        public init(start: String, startFrame: Int64, dropFrame: Bool, source: String) {
            self.start = start
            self.startFrame = startFrame
            self.dropFrame = dropFrame
            self.source = source
        }

        /// The timecode of a movie at `rate` whose first frame is labelled `startFrame`, from `start`.
        public init(startFrame: Int64, rate: FrameRate, from start: TimecodeStart) {
            let timecode = PauseCamCore.Timecode(rate: rate)
            let source: String
            switch start {
            case .timeOfDay: source = "time_of_day"
            case .grid: source = "grid"
            case .fixed: source = "fixed"
            }
            self.init(start: timecode.string(forFrame: startFrame), startFrame: startFrame,
                      dropFrame: timecode.isDropFrame, source: source)
        }
    }
}
