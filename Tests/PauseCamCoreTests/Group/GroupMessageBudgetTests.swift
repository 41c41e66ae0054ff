import XCTest
@testable import PauseCamCore

/// Strangers' commands are taken in a burst, then at a steady rate; warnings likewise, the rest held and told as a
/// count; a clock that goes back earns nothing; nothing traps at the ends of Int64.
final class GroupMessageBudgetTests: XCTestCase {
    private let second: Int64 = 1_000_000_000

    func testCommandsComeInABurstThenAtTheSteadyRate() {
        var budget = GroupMessageBudget()
        let burst = (0..<100).filter { _ in budget.takesCommand(atNanoseconds: 0) }.count
        XCTAssertEqual(burst, GroupMessageBudget.commandBurst)
        // 200 ms earns one command, 199 ms none.
        XCTAssertFalse(budget.takesCommand(atNanoseconds: second / 5 - 1))
        XCTAssertTrue(budget.takesCommand(atNanoseconds: second / 5))
        XCTAssertFalse(budget.takesCommand(atNanoseconds: second / 5))
        // A quiet minute refills the burst, never more.
        let later = (0..<100).filter { _ in budget.takesCommand(atNanoseconds: 60 * second) }.count
        XCTAssertEqual(later, GroupMessageBudget.commandBurst)
    }

    func testAClockThatGoesBackEarnsNothingAndTheEndsOfInt64DoNotTrap() {
        var budget = GroupMessageBudget()
        for _ in 0..<GroupMessageBudget.commandBurst { XCTAssertTrue(budget.takesCommand(atNanoseconds: .max)) }
        XCTAssertFalse(budget.takesCommand(atNanoseconds: .min))
        XCTAssertFalse(budget.takesCommand(atNanoseconds: 0))
        var other = GroupMessageBudget()
        for _ in 0..<GroupMessageBudget.commandBurst { XCTAssertTrue(other.takesCommand(atNanoseconds: .min)) }
        XCTAssertTrue(other.takesCommand(atNanoseconds: .max), "the whole range earns a full bucket")
    }

    func testWarningsBeyondTheBudgetAreHeldAndToldAsOneCount() {
        var budget = GroupMessageBudget()
        let told = (0..<1000).filter { _ in budget.tellsWarning(atNanoseconds: 0) }.count
        XCTAssertEqual(told, GroupMessageBudget.warningBurst)
        XCTAssertEqual(budget.held, 1000 - GroupMessageBudget.warningBurst)
        XCTAssertNil(budget.heldWarnings(atNanoseconds: second), "no line allowed yet")
        let period = 60 * second / Int64(GroupMessageBudget.warningsPerMinute)
        XCTAssertEqual(budget.heldWarnings(atNanoseconds: period), 1000 - GroupMessageBudget.warningBurst)
        XCTAssertEqual(budget.held, 0)
        XCTAssertNil(budget.heldWarnings(atNanoseconds: 100 * period), "nothing held")
    }
}
