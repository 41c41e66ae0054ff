import Foundation

/// A finished clip's cost on the disk: its files (movie, ISOs, voice WAVs) over its duration. The newest clip of a
/// folder is the best guess of what the next one costs, since x264's constant quality (`crf`) makes the rate the
/// picture's, not the settings'.
public struct ClipRate: Sendable, Equatable {
    /// The movie's file name.
    public var movie: String
    /// Bytes a second.
    public var bytesPerSecond: Double

    public init(movie: String, bytesPerSecond: Double) {
        self.movie = movie
        self.bytesPerSecond = bytesPerSecond
    }

    /// The rate of a clip whose sidecar says it lasted `duration` seconds and whose files hold `bytes`; `nil` for a
    /// clip under a second (its start-up costs more than its picture) or numbers that are not a clip's (the
    /// sidecar is read from disk: a hand-edited one may say anything).
    public static func measured(movie: String, bytes: Int64, duration: Double) -> ClipRate? {
        guard duration.isFinite, duration >= 1, duration <= 1e9, bytes > 0 else { return nil }
        return ClipRate(movie: movie, bytesPerSecond: Double(bytes) / duration)
    }
}
