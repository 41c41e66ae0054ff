import Foundation
import PauseCamCore

/// Makes sinks whose every video append blocks the caller — the serial context — for `delay`: a context that is
/// really busy, unlike a slow encoder that works on its own thread.
final class SleepingSinkFactory: MovieSinkFactory {
    /// A sink that only counts, after sleeping on each video frame.
    /// Unchecked Sendable: a fake driven by one thread at a time (the test's, or the worker it hands the clip to).
    final class SleepingSink: MovieSink, @unchecked Sendable {
        let moviePath: String
        var partialPath: String { moviePath + ".partial" }
        let delay: TimeInterval
        private(set) var videoAppends = 0
        private(set) var audioSampleFrames = 0
        var droppedVideoFrames: Int { 0 }

        init(moviePath: String, delay: TimeInterval) {
            self.moviePath = moviePath
            self.delay = delay
        }

        func appendVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws {
            Thread.sleep(forTimeInterval: delay)
            videoAppends += 1
        }
        func setThumbnail(_ frame: VideoFrame) {}
        func appendAudio(_ chunk: AudioChunk) throws { audioSampleFrames += chunk.frameCount }
        func finish(chapters: [Chapter]) throws -> MovieSummary {
            MovieSummary(path: moviePath, videoFramesWritten: videoAppends, videoFramesDropped: 0,
                         audioSamplesWritten: audioSampleFrames)
        }
        func abort() {}
    }

    let delay: TimeInterval
    private(set) var sinks: [SleepingSink] = []

    init(delay: TimeInterval) { self.delay = delay }

    func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink {
        let sink = SleepingSink(moviePath: "\(directory)/\(baseName).\(settings.container.rawValue)", delay: delay)
        sinks.append(sink)
        return sink
    }
}
