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
    /// Fault injection for tests of a slow start: extra time spent opening each movie, as x264 and the file take on
    /// a slow machine (zero normally).
    let extraOpenTime: MediaTime
    /// Fault injection for tests of finishing in the background: each remux waits until this file exists (at most
    /// two minutes), as a long clip's remux takes, and the test decides when it ends instead of racing a guessed
    /// delay (nil normally).
    let remuxGate: String?
    /// Fault injection for the crash tests of finishing: the process kills itself at this step of the in-place
    /// finish (`InPlaceMovieFinisher.killAtStep`; nil normally).
    let finishKillStep: Int?
    /// `false` finishes mov/mp4 by a copy (`ChapterRemuxer`) as before the in-place finish: the way back if a
    /// reader ever rejects an in-place movie (`PAUSECAM_FINISH_BY_COPY=1`), and the comparison in tests.
    let finishesInPlace: Bool

    /// `warn` receives messages worth showing the user (nothing is printed by the writer itself).
    /// `extraEncodeTime` makes every video frame cost that much more to encode: a fault injection for tests and
    /// demonstrations of a machine that cannot keep up (frames are then dropped and counted on the real clock).
    /// `extraOpenTime` makes opening every movie take that much longer; `remuxGate` makes every finish wait until
    /// that file exists before its remux (the `.partial` is complete then; the final movie not yet).
    public convenience init(warn: @escaping (String) -> Void = { _ in }, extraEncodeTime: MediaTime = .zero,
                            extraOpenTime: MediaTime = .zero, remuxGate: String? = nil, finishKillStep: Int? = nil,
                            finishesInPlace: Bool = true) {
        self.init(warn: warn, videoQueueLimit: 8, extraEncodeTime: extraEncodeTime, extraOpenTime: extraOpenTime,
                  remuxGate: remuxGate, finishKillStep: finishKillStep, finishesInPlace: finishesInPlace)
    }

    init(warn: @escaping (String) -> Void, videoQueueLimit: Int, extraEncodeTime: MediaTime = .zero,
         extraOpenTime: MediaTime = .zero, remuxGate: String? = nil, finishKillStep: Int? = nil,
         finishesInPlace: Bool = true) {
        self.finishesInPlace = finishesInPlace
        self.remuxGate = remuxGate
        self.finishKillStep = finishKillStep
        self.warn = warn
        self.videoQueueLimit = videoQueueLimit
        self.extraEncodeTime = extraEncodeTime
        self.extraOpenTime = extraOpenTime
        FFmpegLogLevel.quiet()
    }

    public func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink {
        let paths = try MovieNameReserver(directory: directory, baseName: baseName,
                                          fileExtension: settings.container.rawValue).reserve()
        if let taken = paths.nameTakenBy {
            warn("\((taken as NSString).lastPathComponent) exists; recording to \(paths.moviePath)")
        }
        // The writer opens x264 and the file on its own thread: the serial context that asked is free at once.
        return MovieWriter(paths: paths, settings: settings, videoQueueLimit: videoQueueLimit, warn: warn,
                           extraEncodeTime: extraEncodeTime, extraOpenTime: extraOpenTime, remuxGate: remuxGate,
                           finishKillStep: finishKillStep, finishesInPlace: finishesInPlace)
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
        return MovieWriter(paths: paths, settings: settings, videoQueueLimit: videoQueueLimit, warn: warn,
                           extraEncodeTime: extraEncodeTime, extraOpenTime: extraOpenTime, remuxGate: remuxGate,
                           finishKillStep: finishKillStep, finishesInPlace: finishesInPlace, soundOf: program)
    }
}
