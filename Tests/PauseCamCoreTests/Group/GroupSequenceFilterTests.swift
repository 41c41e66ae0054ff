import XCTest
@testable import PauseCamCore

/// (sender, seq) applied once: duplicates and stale replays are refused and counted; senders are apart; a stranger
/// who claims a sender's numbers are far ahead does not silence that sender's real, fresh messages.
final class GroupSequenceFilterTests: XCTestCase {
    func testEachSequenceNumberOfASenderPassesOnce() {
        var filter = GroupSequenceFilter()
        let steps: [(sender: String, seq: UInt64, fresh: Bool, admitted: Bool)] = [
            ("cam-a", 10, true, true), ("cam-a", 10, true, false),   // QoS 1 duplicate
            ("cam-b", 10, true, true),                                // another sender's own numbers
            ("cam-a", 11, true, true), ("cam-a", 13, true, true),     // a gap is fine (a message for another group…)
            ("cam-a", 12, false, false),                              // below the newest and stale: a replay
            ("cam-a", 10, false, false), ("cam-b", 11, true, true),
            ("cam-a", 11, true, false),                               // below the newest, fresh, but seen lately
        ]
        for (index, step) in steps.enumerated() {
            XCTAssertEqual(filter.admit(from: step.sender, seq: step.seq, fresh: step.fresh), step.admitted,
                           "step \(index): \(step.sender) \(step.seq)")
        }
        XCTAssertEqual(filter.duplicates, 4)
        XCTAssertEqual(filter.highest, ["cam-a": 13, "cam-b": 11])
    }

    func testASpoofedHighNumberDoesNotSilenceTheSendersFreshMessages() {
        var filter = GroupSequenceFilter()
        XCTAssertTrue(filter.admit(from: "cam-a", seq: 1_000, fresh: true))
        XCTAssertTrue(filter.admit(from: "cam-a", seq: 1 << 53, fresh: true), "the stranger's claim, once")
        XCTAssertTrue(filter.admit(from: "cam-a", seq: 1_001, fresh: true), "cam-a's next real command")
        XCTAssertFalse(filter.admit(from: "cam-a", seq: 1_001, fresh: true), "and its QoS 1 duplicate")
        XCTAssertFalse(filter.admit(from: "cam-a", seq: 999, fresh: false), "a stale capture played back")
        XCTAssertEqual(filter.duplicates, 2)
    }

    func testOnlyTheLatestNumbersAreRemembered() {
        var filter = GroupSequenceFilter()
        let count = UInt64(GroupSequenceFilter.remembered) + 10
        for seq in 1...count { XCTAssertTrue(filter.admit(from: "cam-a", seq: seq, fresh: true)) }
        XCTAssertFalse(filter.admit(from: "cam-a", seq: count, fresh: true), "a number remembered")
        XCTAssertFalse(filter.admit(from: "cam-a", seq: 1, fresh: false), "an old one, stale")
    }
}
