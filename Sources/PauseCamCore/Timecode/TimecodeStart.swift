/// Where a movie's timecode starts (`timecode: {start: …}` in the rig): what its QuickTime timecode track (`tmcd`),
/// the exports' source timecode and the sidecar say of its first frame.
///
/// Whatever the start, the movie's timecode then runs continuously, one label a frame (record run): a pause does not
/// jump it, as a camera that pauses does not, so the movie never has a timecode break an editor must bridge. What
/// the wall clock said at each scene's first frame is in the sidecar (`scenes[].time_of_day`).
public enum TimecodeStart: Sendable, Equatable {
    /// The time of day of the first frame on the session's wall clock, in the machine's time zone (the default):
    /// what a camera jammed to a clock writes.
    case timeOfDay
    /// The first frame's slot on the epoch grid (`EpochGrid`: the group's, or the Unix epoch's for a rig on its own),
    /// counted in frames and wrapped at 24 hours: every member of a group gives the same instant the same label at
    /// any rate, even at 29.97 where time of day and the grid do not share their phase.
    case grid
    /// A fixed label for every movie (`"01:00:00:00"`, the usual start of a programme), frame count at the rig's
    /// rate.
    case fixed(label: String)

    /// The rig file's word for each case but `fixed`, which is written as its label.
    public static let words = ["time_of_day", "grid"]
}
