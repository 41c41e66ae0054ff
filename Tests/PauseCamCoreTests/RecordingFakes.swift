import Foundation
@testable import PauseCamCore

/// A sink that keeps what it is given, for checking the engine without FFmpeg.
/// Unchecked Sendable: a fake driven by one thread at a time (the test's, or the worker it hands the clip to).
final class RecordingSink: MovieSink, @unchecked Sendable {
    let moviePath: String
    var partialPath: String { moviePath + ".partial" }
    var video: [(lens: String, time: MediaTime, keyframe: Bool, crop: PixelRect?)] = []
    /// A checksum of each appended frame's luma plane: equal neighbours are a repeated (frozen) picture.
    var pictures: [Int] = []
    /// The luma plane of each appended frame (for tests that look at what a slot shows).
    var lumas: [[UInt8]] = []
    var audio: [AudioChunk] = []
    var chapters: [Chapter] = []
    var thumbnails = 0
    var finished = false
    var droppedVideoFrames: Int { 0 }

    init(path: String) { moviePath = path }

    func appendVideo(_ frame: VideoFrame, at fileTime: MediaTime, keyframe: Bool) throws {
        video.append((frame.lens, fileTime, keyframe, frame.crop))
        let luma = frame.planes.first?.bytes ?? []
        pictures.append(luma.hashValue)
        lumas.append(luma)
    }
    func setThumbnail(_ frame: VideoFrame) { thumbnails += 1 }
    func appendAudio(_ chunk: AudioChunk) throws { audio.append(chunk) }
    func finish(chapters: [Chapter]) throws -> MovieSummary {
        self.chapters = chapters
        finished = true
        return MovieSummary(path: moviePath, videoFramesWritten: video.count, videoFramesDropped: 0,
                            audioSamplesWritten: audio.reduce(0) { $0 + $1.frameCount })
    }
    func abort() {}
    var discarded = false
    func discard() { discarded = true }
}

final class RecordingSinkFactory: MovieSinkFactory {
    var sinks: [RecordingSink] = []
    func makeSink(directory: String, baseName: String, settings: MovieSettings) throws -> any MovieSink {
        let sink = RecordingSink(path: "\(directory)/\(baseName)-\(sinks.count + 1).\(settings.container.rawValue)")
        sinks.append(sink)
        return sink
    }
}

/// Unchecked Sendable: a fake driven by one thread at a time (the test's, or the worker it hands the clip to).
final class MemorySidecarStore: SidecarStore, @unchecked Sendable {
    var files: [String: Data] = [:]
    var writes = 0
    func write(_ data: Data, to path: String) throws {
        files[path] = data
        writes += 1
    }
}
