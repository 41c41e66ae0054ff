import Foundation
import PauseCamCore

/// The composition root's `MovieSinkFactory` for real movies: reserves a free name (`MovieNameReserver`) and opens
/// a `MovieWriter` on it. Quiets FFmpeg's info logging once, since x264's statistics would spam the terminal.
public final class MovieWriterFactory: MovieSinkFactory {
    private let warn: (String) -> Void
    /// Video frames the encoder queue holds before the recorder waits or drops (tests make it tiny).
    let videoQueueLimit: Int

    /// `warn` receives messages worth showing the user (nothing is printed by the writer itself).
    public convenience init(warn: @escaping (String) -> Void = { _ in }) {
        self.init(warn: warn, videoQueueLimit: 8)
    }

    init(warn: @escaping (String) -> Void, videoQueueLimit: Int) {
        self.warn = warn
        self.videoQueueLimit = videoQueueLimit
        FFmpegLogLevel.quiet()
    }

    public func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink {
        let paths = try MovieNameReserver(directory: directory, baseName: baseName,
                                          fileExtension: settings.container.rawValue).reserve()
        if paths.moviePath.hasSuffix("\(baseName).\(settings.container.rawValue)") == false {
            warn("\(baseName).\(settings.container.rawValue) exists; recording to \(paths.moviePath)")
        }
        do {
            return try MovieWriter(paths: paths, settings: settings, videoQueueLimit: videoQueueLimit, warn: warn)
        } catch {
            // Nothing was recorded: the reserved, empty `.partial` must not look like a crashed recording.
            unlink(paths.partialPath)
            throw error
        }
    }
}
