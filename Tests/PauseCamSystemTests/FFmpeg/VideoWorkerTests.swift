import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// Pictures are drawn on the encoder thread and handed to x264 on a worker of their own (so drawing the next
/// picture overlaps x264 taking the last), at most `picturesInFlight` at a time, in order, and nothing is lost.
final class VideoWorkerTests: XCTestCase {
    func testDrawingRunsAheadOfX264ByABoundedNumberOfPictures() throws {
        let stages = EncodingStageProbe()
        stages.hold(.x264)
        try MovieWriterFixture.withPipeline("video", width: 64, height: 48, hooks: stages) { pipeline, partial in
            @Sendable func frame(_ index: Int) -> VideoFrame { MovieWriterFixture.movingFrame(width: 64, height: 48, index: index) }
            let inFlight = EncodingPipeline.picturesInFlight
            for index in 0..<inFlight {
                try pipeline.encodeVideo(frame(index), at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
            }
            XCTAssertEqual(pipeline.video?.framesEncoded, 0, "the pictures wait for x264 on its worker, drawn already")
            // One more picture than may be in flight: its call waits until x264 takes one.
            let returned = DispatchSemaphore(value: 0)
            let caller = Thread {
                try? pipeline.encodeVideo(frame(inFlight), at: MediaTime(value: Int64(inFlight), timescale: 30),
                                          keyframe: false)
                returned.signal()
            }
            caller.start()
            XCTAssertEqual(returned.wait(timeout: .now() + 0.3), .timedOut, "a third picture waits for room")
            stages.release(.x264)
            XCTAssertEqual(returned.wait(timeout: .now() + 10), .success, "room came when x264 took a picture")
            try pipeline.repeatVideo(at: MediaTime(value: Int64(inFlight + 1), timescale: 30))
            try pipeline.finish()
            XCTAssertEqual(pipeline.video?.framesEncoded, inFlight + 2, "every picture and the repeat were encoded")
            let probed = try MovieWriterFixture.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                                partial])
            let frames = String(decoding: probed.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(frames, String(inFlight + 2), "frames in the file")
        }
    }
}
