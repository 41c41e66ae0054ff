import XCTest
@testable import PauseCamCore

/// From movie time back to capture time, across pauses and a discarded take.
final class ProgramTimelineCaptureTimeTests: XCTestCase {
    func testMovieTimeToCaptureTimeTable() {
        let frame = MediaTime(value: 1, timescale: 10)
        var timeline = ProgramTimeline(frameDuration: frame)
        // Segment 1: capture 5.0…6.0 s at file 0…1 s; segment 2 (after a pause): capture 9.0…10.0 s at file 1…2 s.
        for n in 0..<10 {
            let step = MediaTime(value: Int64(n), timescale: 10)
            timeline.kept(slotAt: .seconds(5) + step, fileTime: step, startsSegment: n == 0)
        }
        for n in 0..<10 {
            let step = MediaTime(value: Int64(n), timescale: 10)
            timeline.kept(slotAt: .seconds(9) + step, fileTime: .seconds(1) + step, startsSegment: n == 0)
        }
        let rows: [(MediaTime, [Range<MediaTime>], MediaTime?)] = [
            (.zero, [], .seconds(5)),
            (MediaTime(value: 3, timescale: 10), [], .seconds(5) + MediaTime(value: 3, timescale: 10)),
            (.seconds(1), [], .seconds(9)),
            (.seconds(2), [], nil),
            // The first second was a discarded take: the movie starts with the second segment.
            (.zero, [.zero..<(.seconds(1))], .seconds(9)),
            (frame, [.zero..<(.seconds(1))], .seconds(9) + frame),
        ]
        for (movieTime, discarded, expected) in rows {
            XCTAssertEqual(timeline.captureTime(ofMovieTime: movieTime, discarded: discarded), expected,
                           "\(movieTime) \(discarded)")
        }
        XCTAssertNil(ProgramTimeline(frameDuration: frame).captureTime(ofMovieTime: .zero, discarded: []))
    }
}
