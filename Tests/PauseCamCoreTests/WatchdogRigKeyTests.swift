import XCTest
@testable import PauseCamCore

/// `watchdog:` at the top of a rig and on a lens: the default, the override, and the range with its position.
final class WatchdogRigKeyTests: XCTestCase {
    private typealias Tree = RigDecoderTests

    func testTheRigsWatchdogIsTheDefaultForEveryLensAndALensMayHaveItsOwn() throws {
        let defaults = try RigDecoder.decode(Tree.rig())
        XCTAssertEqual(defaults.watchdog, .seconds(2))
        XCTAssertEqual(defaults.watchdog(forLens: "main"), .seconds(2))

        let top = try RigDecoder.decode(Tree.rig(extra: [(Tree.s("watchdog", 9, 1), Tree.s("5s", 9, 11))]))
        XCTAssertEqual(top.watchdog(forLens: "main"), .seconds(5))

        let own = try RigDecoder.decode(Tree.rig(extra: [(Tree.s("watchdog", 9, 1), Tree.s("5s", 9, 11))],
                                                 lensExtra: [(Tree.s("watchdog", 6, 5), Tree.s("750ms", 6, 15))]))
        XCTAssertEqual(own.watchdog, .seconds(5))
        XCTAssertEqual(own.watchdog(forLens: "main"), .milliseconds(750))
    }

    private func messages(_ root: YAMLNode) -> [String] { Tree.messages(of: root) }

    func testAWatchdogOutOfRangeIsARigErrorAtItsValue() {
        XCTAssertEqual(messages(Tree.rig(lensExtra: [(Tree.s("watchdog", 6, 5), Tree.s("100ms", 6, 15))])),
                       ["t.yaml:6:15: lenses.main.watchdog: watchdog 100ms is too short: a camera in a dim room can "
                        + "take that long between frames; write 500ms to 60s"])
        XCTAssertEqual(messages(Tree.rig(extra: [(Tree.s("watchdog", 9, 1), Tree.s("2m", 9, 11))])),
                       ["t.yaml:9:11: watchdog: duration 2m is out of range (more than 0, at most 60s)"])
    }
}
