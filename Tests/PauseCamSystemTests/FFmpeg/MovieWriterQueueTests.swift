import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The writer's video and audio channels: what a full one costs the movie (the channel itself is tested in
/// `BoundedChannelTests`).
final class MovieWriterQueueTests: XCTestCase {
    func testDroppingWriterCountsEveryFrameItDidNotWriteAndStaysValid() throws {
        let directory = try MovieWriterFixture.directory("drops")
        var settings = MovieWriterFixture.settings(width: 640, height: 360)
        settings.preset = "medium"
        settings.blockWhenBehind = false
        let sink = try MovieWriterFactory(warn: { _ in }, videoQueueLimit: 1)
            .makeSink(directory: directory, baseName: "drops", settings: settings)
        let frames = 60
        for index in 0..<frames {
            try sink.appendVideo(MovieWriterFixture.movingFrame(width: 640, height: 360, index: index),
                                 at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
            try sink.appendAudio(MovieWriterFixture.audioChunk(index: index))
        }
        let summary = try sink.finish(chapters: [])
        // Every frame keeps its place in the movie: a dropped picture's frame repeats the picture before it.
        XCTAssertGreaterThan(summary.videoFramesDropped, 0, "a medium-preset encoder behind a one-frame queue drops")
        XCTAssertEqual(summary.videoFramesWritten, frames)
        XCTAssertEqual(summary.videoFramesDropped, sink.droppedVideoFrames)
        XCTAssertEqual(summary.audioSamplesWritten, frames * 1600, "audio is never dropped")
        let streams = try MovieWriterFixture.probe(summary.path, ["-show_streams", "-count_frames"])["streams"]
            as? [[String: Any]] ?? []
        XCTAssertEqual(streams.first?["nb_read_frames"] as? String, String(summary.videoFramesWritten))
        XCTAssertEqual(streams.first?["r_frame_rate"] as? String, "30/1")
        XCTAssertEqual(streams.first?["avg_frame_rate"] as? String, "30/1", "constant rate despite the drops")
        let (_, errors) = try MovieWriterFixture.run("ffmpeg", ["-v", "error", "-i", summary.path, "-f", "null", "-"])
        XCTAssertEqual(errors, "")
    }

    /// A picture that finds the video queue full is replaced by a repeat of the picture before, and the repeat
    /// must get in even when audio has filled its own room: before, it was refused there, and the movie lost the
    /// frame's place (a guest starved of CPU wrote a movie with a 4-frame step, which editors take as variable
    /// rate). The encoder thread is held, so the queue is full at a known point rather than by a race.
    func testARepeatGetsInWhenAudioHasFilledTheQueueSoTheMovieHasNoHole() throws {
        let directory = try MovieWriterFixture.directory("full-audio")
        var settings = MovieWriterFixture.settings()
        settings.blockWhenBehind = false
        let paths = try MovieNameReserver(directory: directory, baseName: "full-audio",
                                          fileExtension: settings.container.rawValue).reserve()
        // One frame of room while the encoders open too, so the queue is full whether or not they have opened yet.
        let stages = EncodingStageProbe()
        stages.hold(.drawing)
        let writer = MovieWriter(paths: paths, settings: settings,
                                 limits: MovieWriter.QueueLimits(video: 1, opening: 1, audio: 4), hooks: stages)
        let frames = 30
        try writer.appendVideo(MovieWriterFixture.movingFrame(width: 320, height: 180, index: 0), at: .zero,
                               keyframe: true)
        // Twice the audio room: four chunks wait, four are dropped; the audio room is full.
        for index in 0..<8 { try writer.appendAudio(MovieWriterFixture.audioChunk(index: index)) }
        for index in 1..<frames {
            try writer.appendVideo(MovieWriterFixture.movingFrame(width: 320, height: 180, index: index),
                                   at: MediaTime(value: Int64(index), timescale: 30), keyframe: false)
        }
        stages.release(.drawing)
        let summary = try writer.finish(chapters: [])
        XCTAssertGreaterThanOrEqual(summary.videoFramesDropped, frames - 2, "the pictures behind a one-frame queue")
        XCTAssertEqual(summary.videoFramesWritten, frames, "every frame keeps its place")
        let packets = try MovieWriterFixture.probe(summary.path, ["-select_streams", "v", "-show_entries",
                                                                  "packet=pts"])["packets"] as? [[String: Any]] ?? []
        let times = packets.compactMap { $0["pts"] as? Int }.sorted()
        XCTAssertEqual(times.count, frames, "frames in the movie")
        let steps = Set(zip(times, times.dropFirst()).map { $1 - $0 })
        XCTAssertEqual(steps.count, 1, "evenly spaced, no hole: steps \(steps)")
        let streams = try MovieWriterFixture.probe(summary.path, ["-show_streams"])["streams"] as? [[String: Any]] ?? []
        XCTAssertEqual(streams.first?["avg_frame_rate"] as? String, "30/1", "constant rate")
    }

    func testErrorsAfterFinishAreSwiftErrors() throws {
        let directory = try MovieWriterFixture.directory("misuse")
        let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: "m",
                                                     settings: MovieWriterFixture.settings(audio: false))
        try sink.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 90), at: .zero, keyframe: true)
        _ = try sink.finish(chapters: [])
        XCTAssertThrowsError(try sink.appendVideo(MovieWriterFixture.solidFrame(width: 320, height: 180, y: 90),
                                                  at: .seconds(1), keyframe: false))
        XCTAssertThrowsError(try sink.finish(chapters: []))
    }
}
