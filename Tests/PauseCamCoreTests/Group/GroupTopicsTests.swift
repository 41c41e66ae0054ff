import XCTest
@testable import PauseCamCore

/// The group's topics, and which names may be one topic level.
final class GroupTopicsTests: XCTestCase {
    func testTopicsOfAGroup() {
        let topics = GroupTopics(group: "studio")
        XCTAssertEqual(topics.command, "pausecam/studio/command")
        XCTAssertEqual(topics.status(of: "cam-a"), "pausecam/studio/status/cam-a")
        XCTAssertEqual(topics.everyStatus, "pausecam/studio/status/+")
        XCTAssertEqual(topics.host(ofStatusTopic: "pausecam/studio/status/cam-a"), "cam-a")
        XCTAssertNil(topics.host(ofStatusTopic: "pausecam/other/status/cam-a"))
        XCTAssertNil(topics.host(ofStatusTopic: "pausecam/studio/status/cam-a/extra"))
        XCTAssertNil(topics.host(ofStatusTopic: "pausecam/studio/status/"))
    }

    func testNamesThatCannotBeATopicLevelTable() {
        let good = ["studio", "cam-a", "cam_a.local", "Студия", "a", String(repeating: "x", count: 253)]
        for name in good { XCTAssertNil(GroupTopics.problem(withLevel: name), name) }
        let bad = ["", "a/b", "cam+", "#", "nul\u{0}", "tab\there", "line\nbreak", String(repeating: "x", count: 254)]
        for name in bad { XCTAssertNotNil(GroupTopics.problem(withLevel: name), name.debugDescription) }
        XCTAssertEqual(GroupTopics.problem(withLevel: "a/b"),
                       "\"a/b\" holds \"/\", which MQTT topics reserve; use letters, digits, - _ or .")
    }
}
