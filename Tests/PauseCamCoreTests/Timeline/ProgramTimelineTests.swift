import XCTest
@testable import PauseCamCore

/// `ProgramTimeline`: what the ISOs learn of the program's decisions, as a table of instants.
final class ProgramTimelineTests: XCTestCase {
    static let frame = MediaTime(value: 1, timescale: 30)
    static func f(_ n: Int64) -> MediaTime { MediaTime(value: n, timescale: 30) }

    /// Slots 10…19 kept from file time 0, 20…29 dropped (a pause), 40…44 kept from file time 10 frames on.
    static func paused() -> ProgramTimeline {
        var timeline = ProgramTimeline(frameDuration: frame)
        for n in Int64(10)..<20 { timeline.kept(slotAt: f(n), fileTime: f(n - 10), startsSegment: n == 10) }
        for n in Int64(20)..<40 { timeline.dropped(slotAt: f(n)) }
        for n in Int64(40)..<45 { timeline.kept(slotAt: f(n), fileTime: f(n - 30), startsSegment: n == 40) }
        return timeline
    }

    func testInstantsAreKeptAtTheProgramsFileTimeDroppedInPausesAndUndecidedAhead() {
        let timeline = Self.paused()
        let table: [(MediaTime, ProgramTimeline.Decision)] = [
            (Self.f(9), .drop),
            (Self.f(10), .keep(fileTime: .zero, segment: 0)),
            (MediaTime(value: 21, timescale: 60), .keep(fileTime: MediaTime(value: 1, timescale: 60), segment: 0)),
            (Self.f(19), .keep(fileTime: Self.f(9), segment: 0)),
            (MediaTime(value: 399, timescale: 600), .keep(fileTime: MediaTime(value: 199, timescale: 600), segment: 0)),
            (Self.f(20), .drop),
            (Self.f(39), .drop),
            (Self.f(40), .keep(fileTime: Self.f(10), segment: 1)),
            (Self.f(44), .keep(fileTime: Self.f(14), segment: 1)),
            (Self.f(45), .undecided),
            (Self.f(90), .undecided),
        ]
        for (time, want) in table { XCTAssertEqual(timeline.decision(at: time), want, "\(time)") }
    }

    func testNothingIsDecidedBeforeTheProgramDecidesASlotAndAllIsOnceFinished() {
        var timeline = ProgramTimeline(frameDuration: Self.frame)
        XCTAssertEqual(timeline.decision(at: Self.f(3)), .undecided)
        timeline.dropped(slotAt: Self.f(5))
        XCTAssertEqual(timeline.decision(at: Self.f(5)), .drop, "decided without being kept: before the start")
        XCTAssertEqual(timeline.decision(at: Self.f(6)), .undecided)
        var finished = Self.paused()
        finished.finish()
        XCTAssertEqual(finished.decision(at: Self.f(45)), .drop)
        XCTAssertEqual(finished.end, Self.f(45))
    }

    func testAPauseIsDecidedOnceTheProgramDroppedASlotAtOrAfterIt() {
        var timeline = ProgramTimeline(frameDuration: Self.frame)
        timeline.kept(slotAt: Self.f(0), fileTime: .zero, startsSegment: true)
        XCTAssertEqual(timeline.decision(at: Self.f(1)), .undecided)
        timeline.dropped(slotAt: Self.f(1))
        XCTAssertEqual(timeline.decision(at: Self.f(1)), .drop)
        XCTAssertEqual(timeline.decision(at: MediaTime(value: 3, timescale: 90)), .drop)
        XCTAssertEqual(timeline.decision(at: Self.f(2)), .undecided)
    }
}
