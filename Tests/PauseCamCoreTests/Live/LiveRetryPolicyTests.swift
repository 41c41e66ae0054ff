import XCTest
@testable import PauseCamCore

final class LiveRetryPolicyTests: XCTestCase {
    func testWaitsDoubleFromOneSecondToHalfAMinute() {
        let policy = LiveRetryPolicy()
        XCTAssertEqual((1...8).map { policy.delay(afterFailures: $0) },
                       [1, 2, 4, 8, 16, 30, 30, 30].map { MediaTime.seconds($0) })
        XCTAssertEqual(policy.delay(afterFailures: 0), .seconds(1))
        XCTAssertEqual(policy.delay(afterFailures: Int.max), .seconds(30))
    }
}
