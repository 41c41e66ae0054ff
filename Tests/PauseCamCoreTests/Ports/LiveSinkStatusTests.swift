import Foundation
@testable import PauseCamCore
import XCTest

/// A live destination as `status`, the prompt, `ctl status --json` and the page read it: a destination whose attempt
/// failed says it is lost, why, and when it tries again, never "connecting" for ever.
final class LiveSinkStatusTests: XCTestCase {
    func testALostDestinationSaysWhyAndWhenItTriesAgain() {
        let waiting = LiveSinkStatus(name: "studio", on: true, live: false, outages: 1,
                                     lostReason: "Connection refused", retryIn: .milliseconds(3200))
        XCTAssertEqual(waiting.summary, "live studio lost (Connection refused), retrying in 4 s")
        let trying = LiveSinkStatus(name: "studio", on: true, live: false, outages: 1,
                                    lostReason: "Connection refused", retryIn: .zero)
        XCTAssertEqual(trying.summary, "live studio lost (Connection refused), retrying now")
        XCTAssertEqual(LiveSinkStatus(name: "studio", on: true, live: false).summary, "live studio connecting",
                       "before its first attempt ends")
        XCTAssertEqual(LiveSinkStatus(name: "studio", on: false, live: false, lostReason: "Connection refused",
                                      retryIn: .seconds(4)).summary, "live studio off")
    }

    func testStatusJSONCarriesTheReasonAndTheWait() throws {
        var status = RigController.Status(state: .idle, scene: 0, timer: .zero, lens: "main", digitalZoom: 1,
                                          droppedFrames: 0, moviePath: nil)
        status.live = [LiveSinkStatus(name: "studio", on: true, live: false, outages: 1,
                                      lostReason: "Connection refused", retryIn: .milliseconds(2500)),
                       LiveSinkStatus(name: "youtube", on: true, live: true, bitsPerSecond: 3_000_000)]
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ControlStatusJSON.line(status, rig: "S").utf8))
            as? [String: Any])
        let live = try XCTUnwrap(object["live"] as? [[String: Any]])
        XCTAssertEqual(live[0]["lost_reason"] as? String, "Connection refused")
        XCTAssertEqual(live[0]["retry_in"] as? Double, 2.5)
        XCTAssertEqual(live[0]["outages"] as? Int, 1)
        XCTAssertNil(live[1]["lost_reason"])
        XCTAssertNil(live[1]["retry_in"])
    }
}
