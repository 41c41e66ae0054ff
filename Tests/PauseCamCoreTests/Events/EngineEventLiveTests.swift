import PauseCamCore
import XCTest

/// A live destination's return as people read it: the outage measured in nanoseconds is said in tenths of a second.
final class EngineEventLiveTests: XCTestCase {
    func testAMeasuredOutageIsSaidInTenthsOfASecond() {
        let event = EngineEvent.liveBack(destination: "studio",
                                         outage: MediaTime(value: 3_970_844_229, timescale: 1_000_000_000))
        XCTAssertEqual(event.text, "LIVE studio back after 4.0 s")
    }
}
