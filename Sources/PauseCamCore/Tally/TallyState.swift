/// A lens's tally: what a tally light on its camera shows. `program` while the rig records on that lens (red),
/// `preview` for the lens armed by `preview LENS` while it is not on program (green), `off` otherwise — paused,
/// idle or stopped, the program lens is `off`: nothing is being recorded from it.
public enum TallyState: String, Sendable, Equatable, CaseIterable {
    case program
    case preview
    case off
}
