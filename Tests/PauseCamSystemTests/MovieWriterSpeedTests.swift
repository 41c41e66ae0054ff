import Foundation
import PauseCamCore
import XCTest
@testable import PauseCamSystem

/// Encoding speed at 1920x1080 on a moving pattern. Slow (tens of seconds), so it runs only when asked:
/// `PAUSECAM_BENCH=1 swift test --filter MovieWriterSpeedTests`.
final class MovieWriterSpeedTests: XCTestCase {
    func testEncodeSpeedAt1080p() throws {
        guard ProcessInfo.processInfo.environment["PAUSECAM_BENCH"] == "1" else {
            throw XCTSkip("a benchmark of tens of seconds; set PAUSECAM_BENCH=1 to run it")
        }
        // Thirty distinct frames rendered once, cycled: the bar moves every frame, rendering costs nothing.
        let patterns = (0..<30).map { MovieWriterFixture.movingFrame(width: 1920, height: 1080, index: $0 * 7) }
        let frames = 150
        for preset in ["ultrafast", "veryfast"] {
            let directory = try MovieWriterFixture.directory("speed-\(preset)")
            var settings = MovieWriterFixture.settings(audio: false, width: 1920, height: 1080)
            settings.preset = preset
            settings.crf = 23
            let sink = try MovieWriterFactory().makeSink(directory: directory, baseName: "speed", settings: settings)
            let start = DispatchTime.now().uptimeNanoseconds
            for index in 0..<frames {
                try sink.appendVideo(patterns[index % patterns.count], at: MediaTime(value: Int64(index), timescale: 30),
                                     keyframe: index == 0)
            }
            let summary = try sink.finish(chapters: [])
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print("MovieWriter 1920x1080 \(preset): \(String(format: "%.1f", Double(frames) / seconds)) fps "
                  + "(\(frames) frames in \(String(format: "%.2f", seconds)) s)")
            XCTAssertEqual(summary.videoFramesWritten, frames, "blocking mode loses nothing")
            let streams = try MovieWriterFixture.probe(summary.path, ["-show_streams"])["streams"] as? [[String: Any]]
            XCTAssertEqual(streams?.first?["width"] as? Int, 1920)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
