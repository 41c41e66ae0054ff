import Foundation
import PauseCamCore
@testable import PauseCamSystem
import XCTest

/// The real-time context keeps the order the engine relies on: work for one instant runs in the order it was
/// scheduled, however each piece reached the dispatch queue (a timer, or at once when its time had passed).
final class RealTimeSerialContextTests: XCTestCase {
    /// A clock that answers each reading from a script, then the last answer again.
    final class ScriptedClock: Clock {
        private let readings = Guarded<[MediaTime]>([])
        init(_ readings: [MediaTime]) { self.readings.withLock { $0 = readings } }
        func now() -> MediaTime {
            readings.withLock { list in list.count > 1 ? list.removeFirst() : list[0] }
        }
    }

    /// The first piece is scheduled while its time is 50 ms away (a timer), the second for the same instant once the
    /// clock has passed it (at once). The second must still run after the first.
    func testWorkForOneInstantRunsInTheOrderItWasScheduledWhenOneWaitsOnATimer() {
        let instant = MediaTime.seconds(100)
        let clock = ScriptedClock([instant - .milliseconds(50), instant])
        let context = RealTimeSerialContext(clock: clock)
        let order = Guarded<[String]>([])
        let bothRan = expectation(description: "both ran")
        bothRan.expectedFulfillmentCount = 2
        context.schedule(at: instant) { order.withLock { $0.append("first") }; bothRan.fulfill() }
        context.schedule(at: instant) { order.withLock { $0.append("second") }; bothRan.fulfill() }
        wait(for: [bothRan], timeout: 10)
        XCTAssertEqual(order.withLock { $0 }, ["first", "second"])
    }

    /// Many pieces for a few instants, scheduled from several threads: each instant's pieces run in the order each
    /// thread scheduled them, and instants in time order.
    func testInstantsRunInTimeOrderAndEachInstantsWorkInScheduledOrder() {
        let clock = MonotonicClock()
        let context = RealTimeSerialContext(clock: clock)
        let start = clock.now() + .milliseconds(30)
        let instants = (0..<4).map { start + .milliseconds(Int64(10 * $0)) }
        let ran = Guarded<[(instant: Int, index: Int)]>([])
        let count = 400
        let allRan = expectation(description: "all ran")
        allRan.expectedFulfillmentCount = count
        for index in 0..<count {
            let which = (index * 7) % instants.count
            context.schedule(at: instants[which]) {
                ran.withLock { $0.append((which, index)) }
                allRan.fulfill()
            }
        }
        wait(for: [allRan], timeout: 20)
        let seen = ran.withLock { $0 }
        XCTAssertEqual(seen.map(\.instant), seen.map(\.instant).sorted(), "an instant ran before an earlier one")
        for which in instants.indices {
            let indices = seen.filter { $0.instant == which }.map(\.index)
            XCTAssertEqual(indices, indices.sorted(), "instant \(which) ran out of order")
        }
    }
}
