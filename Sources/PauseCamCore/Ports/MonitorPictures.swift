/// One JPEG picture for the live monitor, with the capture time of the frame it was made from.
public struct MonitorPicture: Sendable, Equatable {
    /// The JPEG file's bytes.
    public var jpeg: [UInt8]
    /// Increases by one with every new picture of the same stream, so a viewer asks for "newer than the last".
    public var sequence: UInt64
    /// The capture timestamp of the frame it shows (the session clock), for the monitor's latency.
    public var captureTime: MediaTime
    public var width: Int
    public var height: Int

    public init(jpeg: [UInt8], sequence: UInt64, captureTime: MediaTime, width: Int, height: Int) {
        self.jpeg = jpeg
        self.sequence = sequence
        self.captureTime = captureTime
        self.width = width
        self.height = height
    }
}

/// What the monitor's web server reads: the program picture (what goes into the movie: lens choice and digital
/// zoom) and a small picture per lens, made only while someone watches. Callable from any thread.
public protocol MonitorPictures: AnyObject, Sendable {
    /// A viewer arrived (a program stream, a page with tiles); pictures are made while any viewer is counted.
    func startWatching()
    /// That viewer left.
    func stopWatching()
    /// The newest program picture whose sequence is above `sequence`, waiting up to `timeoutSeconds` for one; `nil`
    /// when none came in time.
    func programPicture(after sequence: UInt64, timeoutSeconds: Double) -> MonitorPicture?
    /// The newest small picture of `lens`, or `nil` when it has none (a cold lens, no camera, nobody watching yet).
    func lensPicture(_ lens: String) -> MonitorPicture?
}
