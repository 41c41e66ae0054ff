import Foundation
import PauseCamCore

/// The composition root's `MovieSinkFactory` for real movies: reserves a free name (`MovieNameReserver`) and opens
/// a `MovieWriter` on it. Quiets FFmpeg's info logging once, since x264's statistics would spam the terminal.
public final class MovieWriterFactory: MovieSinkFactory {
    private let warn: @Sendable (String) -> Void
    /// Video frames the encoder queue holds before the recorder waits or drops (tests make it tiny).
    let videoQueueLimit: Int
    /// Handed to every writer: the program's injected faults (`InjectedFaults`) or a test's view; nil normally.
    let hooks: (any SystemHooks)?
    /// `false` finishes mov/mp4 by a copy (`ChapterRemuxer`) as before the in-place finish: the way back if a
    /// reader ever rejects an in-place movie (`PAUSECAM_FINISH_BY_COPY=1`), and the comparison in tests.
    let finishesInPlace: Bool

    /// `warn` receives messages worth showing the user (nothing is printed by the writer itself). `hooks` reach
    /// into every writer's threads and finish (`SystemHooks`): the program passes `InjectedFaults` when a
    /// `PAUSECAM_FAULT_*` variable asks for one, and otherwise none.
    public convenience init(warn: @escaping @Sendable (String) -> Void = { _ in }, hooks: (any SystemHooks)? = nil,
                            finishesInPlace: Bool = true) {
        self.init(warn: warn, videoQueueLimit: 8, hooks: hooks, finishesInPlace: finishesInPlace)
    }

    init(warn: @escaping @Sendable (String) -> Void, videoQueueLimit: Int, hooks: (any SystemHooks)? = nil,
         finishesInPlace: Bool = true) {
        self.finishesInPlace = finishesInPlace
        self.hooks = hooks
        self.warn = warn
        self.videoQueueLimit = videoQueueLimit
        FFmpegLogLevel.quiet()
    }

    public func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink {
        let paths = try MovieNameReserver(directory: directory, baseName: baseName,
                                          fileExtension: settings.container.rawValue).reserve()
        if let taken = paths.nameTakenBy {
            warn("\((taken as NSString).lastPathComponent) exists; recording to \(paths.moviePath)")
        }
        // The writer opens x264 and the file on its own thread: the serial context that asked is free at once.
        return MovieWriter(paths: paths, settings: settings, limits: MovieWriter.QueueLimits(video: videoQueueLimit),
                           warn: warn, finishesInPlace: finishesInPlace, hooks: hooks)
    }

    /// An ISO's writer whose sound is `program`'s AAC packets, muxed as they are (no AAC encoder of its own), when
    /// `program` is one of these writers; otherwise an ordinary one.
    public func makeIsoSink(directory: String, baseName: String, settings: MovieSettings,
                            program: any MovieSink) throws -> any MovieSink {
        guard let program = program as? MovieWriter else {
            return try makeSink(directory: directory, baseName: baseName, settings: settings)
        }
        let paths = try MovieNameReserver(directory: directory, baseName: baseName,
                                          fileExtension: settings.container.rawValue).reserve()
        if let taken = paths.nameTakenBy {
            warn("\((taken as NSString).lastPathComponent) exists; recording to \(paths.moviePath)")
        }
        return MovieWriter(paths: paths, settings: settings, limits: MovieWriter.QueueLimits(video: videoQueueLimit),
                           warn: warn, finishesInPlace: finishesInPlace, soundOf: program, hooks: hooks)
    }
}
