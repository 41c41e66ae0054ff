/// What a camera did when asked to focus and expose for a region of its picture (`Camera.setRegionOfInterest`).
public enum RegionOfInterestOutcome: Sendable, Equatable {
    /// The camera has no region-of-interest control; nothing changed, so the caller may fall back to one-shot
    /// autofocus.
    case unsupported
    /// The camera took the region and, where it has the automatic controls, focuses and exposes for it.
    case set
}
