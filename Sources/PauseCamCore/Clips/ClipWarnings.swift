/// The warnings that belong in clips' sidecars but arose while no clip could take them: those that hold for every
/// clip of the run (a camera that was not found at the start, a microphone that could not start), and those for
/// the next clip only (a camera control that failed between clips). `ClipController` is its only writer; a
/// warning for the clip recording now goes straight to its `Recorder`.
public struct ClipWarnings: Sendable, Equatable {
    /// Copied into every clip's sidecar.
    public private(set) var everyClip: [String]
    /// Copied into the next clip's sidecar, then forgotten; each once.
    public private(set) var nextClip: [String] = []

    public init(everyClip: [String] = []) {
        self.everyClip = everyClip
    }

    /// Adds a warning every clip from now on carries.
    public mutating func addForEveryClip(_ warning: String) {
        everyClip.append(warning)
    }

    /// Adds a warning for the next clip, unless it is already waiting.
    public mutating func addForNextClip(_ warning: String) {
        if !nextClip.contains(warning) { nextClip.append(warning) }
    }

    /// The warnings a clip starting now begins with; the next-clip ones are handed over and forgotten.
    public mutating func startClip() -> [String] {
        defer { nextClip = [] }
        return everyClip + nextClip
    }
}
