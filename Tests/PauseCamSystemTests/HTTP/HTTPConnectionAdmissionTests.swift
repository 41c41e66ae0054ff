import XCTest
@testable import PauseCamSystem

/// The rules that keep slow-header clients from taking every place, on made-up connections and times.
final class HTTPConnectionAdmissionTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    private func admission(perAddress: Int = 2, inAll: Int = 4) -> HTTPConnectionAdmission<Int> {
        HTTPConnectionAdmission(limits: .init(headerDeadline: 5 * second, waitingPerAddress: perAddress,
                                              waitingInAll: inAll))
    }

    func testTheNewestFromOneAddressPushesOutItsOldestWaitingConnection() {
        var rules = admission()
        XCTAssertEqual(rules.opened(1, address: "a", at: 0), [])
        XCTAssertEqual(rules.opened(2, address: "a", at: 1), [])
        XCTAssertEqual(rules.opened(3, address: "a", at: 2), [1])
        XCTAssertEqual(rules.opened(4, address: "b", at: 2), [], "another address has its own share")
        rules.headersArrived(2)
        XCTAssertEqual(rules.opened(5, address: "a", at: 3), [], "a connection being answered does not wait")
        XCTAssertEqual(rules.opened(6, address: "a", at: 3), [3])
        XCTAssertEqual(rules.waitingCount, 3)
    }

    func testWhenAllAreTakenTheAddressHoldingTheMostLosesItsOldest() {
        var rules = admission(perAddress: 3, inAll: 4)
        XCTAssertEqual(rules.opened(1, address: "b", at: 0), [])
        XCTAssertEqual(rules.opened(2, address: "a", at: 1), [])
        XCTAssertEqual(rules.opened(3, address: "a", at: 1), [])
        XCTAssertEqual(rules.opened(4, address: "a", at: 2), [])
        XCTAssertEqual(rules.opened(5, address: "c", at: 3), [2], "b's older connection stays: a holds more")
        XCTAssertEqual(rules.opened(6, address: "d", at: 3), [3])
        XCTAssertEqual(rules.waitingCount, 4)
    }

    func testAConnectionWaitingPastTheDeadlineIsCutOnceWhateverItSends() {
        var rules = admission()
        _ = rules.opened(1, address: "a", at: 0)
        _ = rules.opened(2, address: "b", at: 2 * second)
        XCTAssertEqual(rules.expired(at: 4 * second), [])
        XCTAssertEqual(rules.expired(at: 5 * second), [1])
        XCTAssertEqual(rules.expired(at: 6 * second), [], "never named twice")
        rules.headersArrived(2)
        XCTAssertEqual(rules.expired(at: 60 * second), [], "a request being answered has no deadline")
        rules.requestEnded(2, at: 60 * second)
        XCTAssertEqual(rules.expired(at: 64 * second), [])
        XCTAssertEqual(rules.expired(at: 65 * second), [2], "the next request's headers have the same deadline")
        rules.closed(1)
        rules.closed(2)
        XCTAssertEqual(rules.waitingCount, 0)
        XCTAssertEqual(rules.expired(at: 100 * second), [])
    }

    func testHeadersReportedBeforeTheOpeningLeaveTheConnectionServed() {
        var rules = admission()
        rules.headersArrived(1)
        XCTAssertEqual(rules.opened(1, address: "a", at: 0), [])
        XCTAssertEqual(rules.waitingCount, 0)
        XCTAssertEqual(rules.expired(at: 60 * second), [])
        rules.requestEnded(1, at: 60 * second)
        XCTAssertEqual(rules.expired(at: 65 * second), [1])
    }

    func testAClockThatSeemsToGoBackCutsNothing() {
        var rules = admission()
        _ = rules.opened(1, address: "a", at: 10 * second)
        XCTAssertEqual(rules.expired(at: 0), [])
    }
}
