import Foundation
import PauseCamCore

/// The composition root's `MovieSinkFactory` for real movies: reserves a free name (`MovieNameReserver`) and opens
/// a `MovieWriter` on it. Quiets FFmpeg's info logging once, since x264's statistics would spam the terminal.
public final class MovieWriterFactory: MovieSinkFactory {
    private let warn: (String) -> Void
    /// Video frames the encoder queue holds before the recorder waits or drops (tests make it tiny).
    let videoQueueLimit: Int
    /// Fault injection for tests of a slow encoder: extra time spent on every video frame (zero normally).
    let extraEncodeTime: MediaTime

    /// `warn` receives messages worth showing the user (nothing is printed by the writer itself).
    /// `extraEncodeTime` makes every video frame cost that much more to encode: a fault injection for tests and
    /// demonstrations of a machine that cannot keep up (frames are then dropped and counted on the real clock).
    public convenience init(warn: @escaping (String) -> Void = { _ in }, extraEncodeTime: MediaTime = .zero) {
        self.init(warn: warn, videoQueueLimit: 8, extraEncodeTime: extraEncodeTime)
    }

    init(warn: @escaping (String) -> Void, videoQueueLimit: Int, extraEncodeTime: MediaTime = .zero) {
        self.warn = warn
        self.videoQueueLimit = videoQueueLimit
        self.extraEncodeTime = extraEncodeTime
        FFmpegLogLevel.quiet()
    }

    public func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink {
        let paths = try MovieNameReserver(directory: directory, baseName: baseName,
                                          fileExtension: settings.container.rawValue).reserve()
        if paths.moviePath.hasSuffix("\(baseName).\(settings.container.rawValue)") == false {
            warn("\(baseName).\(settings.container.rawValue) exists; recording to \(paths.moviePath)")
        }
        do {
            return try MovieWriter(paths: paths, settings: settings, videoQueueLimit: videoQueueLimit, warn: warn,
                                   extraEncodeTime: extraEncodeTime)
        } catch {
            // Nothing was recorded: the reserved, empty `.partial` must not look like a crashed recording.
            unlink(paths.partialPath)
            throw error
        }
    }
}
