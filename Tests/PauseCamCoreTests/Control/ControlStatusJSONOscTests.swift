import Foundation
import XCTest
@testable import PauseCamCore

/// The `osc` object of `status --json`: present with the endpoint's figures when the rig has `osc:`, absent
/// otherwise.
final class ControlStatusJSONOscTests: XCTestCase {
    private func object(_ status: RigStatus) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ControlStatusJSON.line(status, rig: "R").utf8))
                      as? [String: Any])
    }

    func testTheOscFiguresAreInTheStatus() throws {
        var status = RigStatus(state: .idle, scene: 0, timer: .zero, lens: "main", digitalZoom: 1, droppedFrames: 0,
                               moviePath: nil)
        XCTAssertNil(try object(status)["osc"])
        let counters = OSCCounters(listen: "127.0.0.1:9000")
        counters.countHandled()
        counters.count(.overRate)
        counters.count(.overRate)
        counters.count(.wrongType)
        counters.setSubscribers(2)
        status.osc = counters.snapshot
        let osc = try XCTUnwrap(try object(status)["osc"] as? [String: Any])
        XCTAssertEqual(osc["listen"] as? String, "127.0.0.1:9000")
        XCTAssertEqual(osc["handled"] as? Int, 1)
        XCTAssertEqual(osc["junk"] as? [String: Int], ["over_rate": 2, "wrong_type": 1])
        XCTAssertEqual(osc["junk_total"] as? Int, 3)
        XCTAssertEqual(osc["subscribers"] as? Int, 2)
    }
}
