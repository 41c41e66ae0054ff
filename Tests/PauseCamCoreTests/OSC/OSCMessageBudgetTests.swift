import XCTest
@testable import PauseCamCore

/// The message budget: a burst, then a steady rate, on the caller's clock.
final class OSCMessageBudgetTests: XCTestCase {
    func testABurstThenTheSteadyRate() {
        var budget = OSCMessageBudget()
        let start: Int64 = 5_000_000_000
        let taken = (0..<(OSCMessageBudget.burst * 4)).filter { _ in budget.takes(atNanoseconds: start) }.count
        XCTAssertEqual(taken, OSCMessageBudget.burst, "a flood at one instant gets the burst only")
        let oneSecondLater = start + 1_000_000_000
        let more = (0..<(OSCMessageBudget.burst * 4)).filter { _ in budget.takes(atNanoseconds: oneSecondLater) }.count
        XCTAssertEqual(more, OSCMessageBudget.perSecond, "a second refills the steady rate")
        let muchLater = start + 3_600_000_000_000
        let refilled = (0..<(OSCMessageBudget.burst * 4)).filter { _ in budget.takes(atNanoseconds: muchLater) }.count
        XCTAssertEqual(refilled, OSCMessageBudget.burst, "never more than the burst after a quiet spell")
    }

    func testAClockGoingBackwardsAddsNothing() {
        var budget = OSCMessageBudget()
        for _ in 0..<OSCMessageBudget.burst { XCTAssertTrue(budget.takes(atNanoseconds: 1_000_000_000_000)) }
        XCTAssertFalse(budget.takes(atNanoseconds: 0))
        XCTAssertFalse(budget.takes(atNanoseconds: .min))
        XCTAssertTrue(budget.takes(atNanoseconds: .max), "extremes neither trap nor refuse forever")
    }
}
