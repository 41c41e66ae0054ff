/// How much room is left where movies are written. The real one (PauseCamSystem) asks the file system; tests use
/// a fake. The rig controller polls it while recording, so a full disk ends a clip cleanly instead of tearing it.
public protocol StorageProbe: AnyObject {
    /// Bytes an unprivileged writer may still use on the file system holding `path`; `nil` when unknown.
    func availableBytes(at path: String) -> Int64?
    /// The size of the file at `path`; `nil` when it does not exist.
    func fileSize(at path: String) -> Int64?
}

/// When the controller warns about, and acts on, a filling disk.
public struct StoragePolicy: Sendable, Equatable {
    /// How often the free space is checked while recording (clock time).
    public var interval: MediaTime
    /// Warn once when less than this is left beyond what finishing the clip needs.
    public var warnBelow: Int64
    /// Stop and save when less than this is left beyond what finishing the clip needs (`FinishingReserve`: a new
    /// index for a movie finished in place, the `.partial`'s size again for one finished by a copy).
    public var stopBelow: Int64

    public init(interval: MediaTime = .seconds(2), warnBelow: Int64 = 1 << 30, stopBelow: Int64 = 64 << 20) {
        self.interval = interval
        self.warnBelow = warnBelow
        self.stopBelow = stopBelow
    }
}
