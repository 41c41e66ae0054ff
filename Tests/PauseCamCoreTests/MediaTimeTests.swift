import XCTest
@testable import PauseCamCore

final class MediaTimeTests: XCTestCase {
    func testComparisonAcrossTimescales() {
        XCTAssertEqual(MediaTime(value: 1, timescale: 2), MediaTime(value: 500, timescale: 1000))
        XCTAssertLessThan(MediaTime(value: 1001, timescale: 30000), MediaTime(value: 1, timescale: 29))
        XCTAssertGreaterThan(MediaTime(value: Int64.max, timescale: 1), MediaTime(value: Int64.max, timescale: 1_000_000_000))
        XCTAssertLessThan(MediaTime(value: Int64.min, timescale: 1), MediaTime(value: Int64.min, timescale: 2))
    }
}
