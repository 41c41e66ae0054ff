import XCTest
@testable import PauseCamSystem

/// The line reader's queue of messages for above the line: bounded, the oldest dropped first, and the drop said.
final class AboveLineMessagesTests: XCTestCase {
    func testMessagesComeOutInOrderAndOnlyOnce() {
        let messages = AboveLineMessages(limit: 4)
        messages.add("one")
        messages.add("two")
        XCTAssertEqual(messages.take(), ["one", "two"])
        XCTAssertEqual(messages.take(), [])
    }

    /// A reading thread that cannot print (a stuck terminal) does not let the queue grow without end: past the
    /// limit the oldest go, and the next take says how many.
    func testPastTheLimitTheOldestGoAndTheNextTakeSaysHowMany() {
        let messages = AboveLineMessages(limit: 3)
        for index in 1...10 { messages.add("event \(index)") }
        XCTAssertEqual(messages.take(), ["(7 earlier messages were dropped: the terminal did not keep up)",
                                         "event 8", "event 9", "event 10"])
        messages.add("event 11")
        messages.add("event 12")
        messages.add("event 13")
        messages.add("event 14")
        XCTAssertEqual(messages.take(), ["(1 earlier message was dropped: the terminal did not keep up)",
                                         "event 12", "event 13", "event 14"])
    }

    func testTheDefaultLimitHoldsABurstOfEvents() {
        let messages = AboveLineMessages()
        for index in 0..<AboveLineMessages.defaultLimit { messages.add("\(index)") }
        XCTAssertEqual(messages.take().count, AboveLineMessages.defaultLimit)
    }
}
