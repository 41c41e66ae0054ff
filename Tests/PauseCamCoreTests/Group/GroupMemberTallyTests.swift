import XCTest
@testable import PauseCamCore
import PauseCamVirtual

/// A member's tally on the group's broker: one retained topic per lens under `pausecam/GROUP/tally/HOST/`, its
/// payload the plain state word; nothing while the broker is away or after the member stopped.
final class GroupMemberTallyTests: XCTestCase {
    private func board(_ state: Session.State, _ lens: String, preview: String? = nil) -> TallyBoard {
        TallyBoard(lenses: ["wide", "main", "a/b"], activeLens: lens, previewLens: preview, state: state)
    }

    private func tallies(_ broker: VirtualGroupBroker) -> [String: String] {
        broker.retained.filter { $0.key.contains("/tally/") }.mapValues { String(decoding: $0.payload, as: UTF8.self) }
    }

    func testEachLensHasItsRetainedTopic() throws {
        let broker = VirtualGroupBroker()
        let member = GroupMemberTests.Member(broker: broker, world: GroupMemberTests.World(), host: "cam-a",
                                             captureOffset: 0)
        member.member.publishTally(board(.recording, "main").entries)
        broker.deliver()
        XCTAssertEqual(tallies(broker), [:], "published before the broker answered")

        try member.member.start()
        broker.deliver()
        member.member.publishTally(board(.recording, "main", preview: "wide").entries)
        broker.deliver()
        XCTAssertEqual(tallies(broker), ["pausecam/studio/tally/cam-a/wide": "preview",
                                         "pausecam/studio/tally/cam-a/main": "program"],
                       "a lens whose name cannot be a topic level is left out")
        XCTAssertTrue(broker.retained.values.filter { $0.topic.contains("/tally/") }.allSatisfy(\.retained))

        member.member.publishTally(board(.paused, "main").entries)
        broker.deliver()
        XCTAssertEqual(tallies(broker), ["pausecam/studio/tally/cam-a/wide": "off",
                                         "pausecam/studio/tally/cam-a/main": "off"])

        member.member.stop()
        member.member.publishTally(board(.recording, "wide").entries)
        broker.deliver()
        XCTAssertEqual(tallies(broker)["pausecam/studio/tally/cam-a/wide"], "off", "published after the member stopped")
    }

    func testTheTopicNamesHostAndLens() {
        let topics = GroupTopics(group: "studio")
        XCTAssertEqual(topics.tally(of: "cam-a", lens: "main"), "pausecam/studio/tally/cam-a/main")
        XCTAssertNil(topics.tally(of: "cam-a", lens: "a+b"))
        XCTAssertNil(topics.tally(of: "cam-a", lens: ""))
        XCTAssertEqual(topics.everyTally, "pausecam/studio/tally/#")
    }
}
