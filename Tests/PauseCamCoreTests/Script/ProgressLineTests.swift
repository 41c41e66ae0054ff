import XCTest
@testable import PauseCamCore

/// The progress line's text and pace, on a manual real clock.
final class ProgressLineTests: XCTestCase {
    private func progress(session: Int64, movie: Int64, left: Int64) -> WaitProgress {
        WaitProgress(sessionTime: .milliseconds(session), movieTime: .milliseconds(movie),
                     scriptedTimeLeft: .milliseconds(left))
    }

    func testTextShowsMovieTimeTimeLeftAndSpeed() {
        let real = SimulatedClock(start: .seconds(100))
        var line = ProgressLine(realClock: real)
        XCTAssertEqual(line.text(for: progress(session: 10_000, movie: 10_000, left: 110_000)),
                       "movie 00:00:10.0 · script left 00:01:50.0 · speed …")
        real.set(.seconds(110))
        // 123 s of session time in 10 s of real time.
        XCTAssertEqual(line.text(for: progress(session: 133_000, movie: 83_400, left: 36_600)),
                       "movie 00:01:23.4 · script left 00:00:36.6 · speed 12.3x")
    }

    func testTextsCloserThanTheIntervalAreSkipped() {
        let real = SimulatedClock(start: .seconds(100))
        var line = ProgressLine(realClock: real, interval: .milliseconds(200))
        XCTAssertNotNil(line.text(for: progress(session: 0, movie: 0, left: 5000)))
        real.set(.seconds(100) + .milliseconds(199))
        XCTAssertNil(line.text(for: progress(session: 250, movie: 250, left: 4750)))
        real.set(.seconds(100) + .milliseconds(200))
        XCTAssertEqual(line.text(for: progress(session: 500, movie: 500, left: 4500)),
                       "movie 00:00:00.5 · script left 00:00:04.5 · speed 2.5x")
    }

    func testResetStartsANewMeasurement() {
        let real = SimulatedClock(start: .seconds(100))
        var line = ProgressLine(realClock: real)
        _ = line.text(for: progress(session: 0, movie: 0, left: 5000))
        real.set(.seconds(160))
        line.reset()
        XCTAssertEqual(line.text(for: progress(session: 1000, movie: 0, left: 4000)),
                       "movie 00:00:00.0 · script left 00:00:04.0 · speed …")
    }
}
