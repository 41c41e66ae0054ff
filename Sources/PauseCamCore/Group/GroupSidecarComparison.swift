/// How well the members of a group agreed on one clip, read from their sidecars: how far apart they put the same
/// scene edge (in frames; the goal is 0), and how many group commands reached a member after their effective time.
/// The group benchmark reports these (`group_boundary_skew_frames`, `group_late_commands`).
///
/// A member's scene edges are every scene's start and end in movie time. Members that applied every command on the
/// same slot of the group's grid have equal edges, and one edge's spread is the latest member's time minus the
/// earliest's. Movie time counts from the clip's first frame, so a member whose `record` landed late shows it in
/// every later edge, and a late pause or resume in the edges after it: the spread is what an editor lining the
/// movies up at their first frame would see. Edges are compared by position, so the members must have recorded
/// the same number of scenes at the same rate; otherwise there is no skew to measure, and the comparison throws
/// `Mismatch`, naming each member's count or rate.
public struct GroupSidecarComparison: Sendable, Equatable {
    /// One scene edge across the members.
    public struct Edge: Sendable, Equatable {
        /// The scene's number (1-based, as the sidecar counts them).
        public var scene: Int
        /// The scene's end (its pause, chapter or stop) rather than its start.
        public var isEnd: Bool
        /// The latest member's time of this edge minus the earliest's, in frames of the clip's rate, to a thousandth
        /// of a frame (the sidecar's seconds are doubles: a whole frame reads back as 1.0000000002).
        public var spreadFrames: Double

        public init(scene: Int, isEnd: Bool, spreadFrames: Double) {
            self.scene = scene
            self.isEnd = isEnd
            self.spreadFrames = spreadFrames
        }
    }

    /// Why the members' clips cannot be compared edge by edge; `description` says which member differs.
    public enum Mismatch: Error, Sendable, Equatable, CustomStringConvertible {
        /// No sidecar was given.
        case noMembers
        /// The members recorded different numbers of scenes (by member: the group's host, or the rig's name).
        case sceneCounts([String: Int])
        /// The members recorded at different rates (frames per second, by member).
        case rates([String: Double])

        public var description: String {
            func list<V>(_ values: [String: V]) -> String {
                values.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            }
            switch self {
            case .noMembers:
                return "no member's sidecar to compare"
            case .sceneCounts(let counts):
                return "the members recorded different numbers of scenes (\(list(counts))): a command did not reach "
                    + "every member; read each sidecar's group.commands"
            case .rates(let rates):
                return "the members recorded at different rates (\(list(rates)) fps): give every member the same "
                    + "output.fps"
            }
        }
    }

    /// Every scene's start and end, in scene order.
    public var edges: [Edge]
    /// Group commands that reached a member after their effective time (applied on arrival), over all members.
    public var lateCommands: Int
    /// Group commands seen, over all members.
    public var commands: Int
    /// The least time any member had left between a command's arrival and its effective time, in nanoseconds (what
    /// the lead could have been shorter by on this run); `nil` when every command was late or none was seen.
    public var smallestMarginNanoseconds: Int64?

    /// The latest any late command came after its effective time, in seconds; `nil` when none was late.
    public var largestLateBy: Double?

    /// The largest spread of any edge, in frames; 0 without scenes.
    public var maximumSkewFrames: Double { edges.map(\.spreadFrames).max() ?? 0 }

    /// Compares the clips of one group take, one sidecar per member.
    public init(sidecars: [Sidecar]) throws(Mismatch) {
        guard let first = sidecars.first else { throw .noMembers }
        func member(_ sidecar: Sidecar) -> String { sidecar.group?.host ?? sidecar.rig }
        let counts = Dictionary(sidecars.map { (member($0), $0.scenes.count) }, uniquingKeysWith: { $1 })
        guard Set(counts.values).count == 1 else { throw .sceneCounts(counts) }
        let rates = Dictionary(sidecars.map { (member($0), $0.video.fps) }, uniquingKeysWith: { $1 })
        guard Set(rates.values).count == 1 else { throw .rates(rates) }
        let fps = first.video.fps
        edges = []
        for position in first.scenes.indices {
            for isEnd in [false, true] {
                let times = sidecars.map { sidecar in
                    let scene = sidecar.scenes[position]
                    return isEnd ? scene.start + scene.duration : scene.start
                }
                let spread = ((times.max()! - times.min()!) * fps * 1000).rounded() / 1000
                edges.append(Edge(scene: position + 1, isEnd: isEnd, spreadFrames: spread))
            }
        }
        let seen = sidecars.flatMap { $0.group?.commands ?? [] }
        commands = seen.count
        let late = seen.filter { $0.outcome == GroupCommandRecord.Outcome.late.rawValue }
        lateCommands = late.count
        largestLateBy = late.map(\.lateBy).max()
        smallestMarginNanoseconds = seen.filter { $0.outcome == GroupCommandRecord.Outcome.onTime.rawValue }
            .map { $0.atNs &- $0.arrivedNs }.min()
    }
}
