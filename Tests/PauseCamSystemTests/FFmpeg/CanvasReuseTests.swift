import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// The encoder thread's per-frame path allocates no new canvas per frame: libx264 copies each picture
/// it is given, so the canvas the pipeline no longer needs is drawn over for a later frame.
final class CanvasReuseTests: XCTestCase {
    func testARecordingReusesAFewCanvasesInsteadOfOnePerFrame() throws {
        let counter = CanvasCounter()
        try MovieWriterFixture.withPipeline("canvas", width: 160, height: 120, hooks: counter) { pipeline, _ in
            for index in 0..<30 {
                // A smaller source every third frame: letterboxed, so a reused canvas must get its black bars again.
                let size = index % 3 == 0 ? (80, 120) : (160, 120)
                try pipeline.encodeVideo(MovieWriterFixture.movingFrame(width: size.0, height: size.1, index: index),
                                         at: MediaTime(value: Int64(index), timescale: 30), keyframe: index == 0)
            }
            try pipeline.repeatVideo(at: MediaTime(value: 30, timescale: 30))
            try pipeline.finish()
            XCTAssertEqual(pipeline.video?.framesEncoded, 31)
            XCTAssertLessThanOrEqual(counter.canvasesAllocated, CanvasScaler.spareLimit + 1,
                                     "30 frames drew into \(counter.canvasesAllocated) canvases")
        }
    }

    func testAReusedCanvasShowsTheNewFramesBarsNotTheOldPicture() throws {
        let counter = CanvasCounter()
        let scaler = CanvasScaler(width: 64, height: 48, hooks: counter)
        let full = try scaler.scale(MovieWriterFixture.solidFrame(width: 64, height: 48, y: 200))
        scaler.recycle(full)
        // A 4:3 canvas, a narrower source: pillarboxed into the recycled canvas.
        let narrow = try scaler.scale(MovieWriterFixture.solidFrame(width: 32, height: 48, y: 100))
        defer { FFmpegFrame.release(narrow) }
        XCTAssertEqual(narrow, full, "the recycled canvas is reused")
        XCTAssertEqual(counter.canvasesAllocated, 1)
        let planes = CanvasScaler.planes(of: narrow)
        XCTAssertEqual(planes.data[0][0], 16, "the bar is black, not the old picture's 200")
        XCTAssertEqual(planes.data[0][32], 100)
    }
}
