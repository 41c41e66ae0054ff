import XCTest
@testable import PauseCamCore

/// (sender, seq) applied once: duplicates, replays and older numbers are refused and counted; senders are apart.
final class GroupSequenceFilterTests: XCTestCase {
    func testEachSequenceNumberOfASenderPassesOnce() {
        var filter = GroupSequenceFilter()
        let steps: [(String, UInt64, Bool)] = [
            ("cam-a", 10, true), ("cam-a", 10, false),   // QoS 1 duplicate
            ("cam-b", 10, true),                          // another sender's own numbers
            ("cam-a", 11, true), ("cam-a", 13, true),     // a gap is fine (a message for another group…)
            ("cam-a", 12, false),                         // older than the newest: a replay
            ("cam-a", 10, false), ("cam-b", 11, true),
        ]
        for (index, (sender, seq, admitted)) in steps.enumerated() {
            XCTAssertEqual(filter.admit(from: sender, seq: seq), admitted, "step \(index): \(sender) \(seq)")
        }
        XCTAssertEqual(filter.duplicates, 3)
        XCTAssertEqual(filter.highest, ["cam-a": 13, "cam-b": 11])
    }
}
