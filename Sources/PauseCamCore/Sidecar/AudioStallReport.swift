/// The audio's hard corrections in one clip: each a stall of more than 200 ms (a microphone unplugged, a process
/// stopped) that was filled with silence or cut, rather than smoothed by the drift correction. In the sidecar's
/// `audio.stalls` (absent when there were none), so a listener knows where a gap in the sound came from.
public struct AudioStallReport: Codable, Sendable, Equatable {
    /// How many stalls were corrected.
    public var count = 0
    /// Silence inserted, in sample frames.
    public var silenceSamples = 0
    /// Sample frames cut because audio came back ahead of its place.
    public var droppedSamples = 0

    public init(count: Int = 0, silenceSamples: Int = 0, droppedSamples: Int = 0) {
        self.count = count
        self.silenceSamples = silenceSamples
        self.droppedSamples = droppedSamples
    }
}
