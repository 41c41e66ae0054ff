import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The seam tests use to see the encoding threads: each stage reports every unit of work it takes, once before and
/// once after, on its own thread, so a test can hold a stage or wait for it without a sleep.
final class EncodingStageTests: XCTestCase {
    func testEveryStageReportsEachPictureAndChunkItHandles() throws {
        let directory = try MovieWriterFixture.directory("stages")
        let settings = MovieWriterFixture.settings()
        let paths = try MovieNameReserver(directory: directory, baseName: "stages",
                                          fileExtension: settings.container.rawValue).reserve()
        let stages = EncodingStageProbe()
        let writer = MovieWriter(paths: paths, settings: settings, hooks: stages)
        let frames = 10
        for index in 0..<frames {
            try writer.appendVideo(MovieWriterFixture.movingFrame(width: 320, height: 180, index: index),
                                   at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
            try writer.appendAudio(MovieWriterFixture.audioChunk(index: index))
        }
        let summary = try writer.finish(chapters: [])
        for stage in [EncodingStage.drawing, .x264, .audio] {
            XCTAssertEqual(stages.taken(stage), frames, "\(stage): every unit taken")
            XCTAssertEqual(stages.handled(stage), frames, "\(stage): every unit taken was handled")
        }
        XCTAssertEqual(summary.videoFramesWritten, stages.handled(.x264), "what x264 handled is what the movie holds")
    }
}
