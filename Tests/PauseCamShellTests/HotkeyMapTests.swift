import XCTest
@testable import PauseCamCore
@testable import PauseCamShell

/// The keys mode binds any command that acts at once: `follow on|off` and `voice NAME …` included, through the rig
/// decoder's check of `keys:` and into the map the keys mode reads.
final class HotkeyMapTests: XCTestCase {
    func scalar(_ text: String, _ line: Int, _ column: Int) -> YAMLNode {
        .scalar(text, style: .plain, at: SourceMark(file: "t.yaml", line: line, column: column))
    }

    func mapping(_ line: Int, _ column: Int, _ pairs: [(YAMLNode, YAMLNode)]) -> YAMLNode {
        YAMLNode(.mapping(pairs.map { YAMLNode.Pair(key: $0.0, value: $0.1) }),
                 at: SourceMark(file: "t.yaml", line: line, column: column))
    }

    /// A rig of one virtual lens whose `keys:` are `pairs`.
    func rig(keys pairs: [(String, String)]) throws -> Rig {
        try RigDecoder.decode(mapping(1, 1, [
            (scalar("name", 1, 1), scalar("T", 1, 7)),
            (scalar("lenses", 2, 1), mapping(3, 3, [(scalar("main", 3, 3), mapping(3, 9, [
                (scalar("zoom", 3, 9), scalar("1", 3, 15)),
                (scalar("virtual", 4, 5), mapping(4, 14, [(scalar("color", 4, 15), scalar("#102030", 4, 22))])),
            ]))])),
            (scalar("keys", 5, 1), mapping(6, 3, pairs.enumerated().map { index, pair in
                (scalar(pair.0, 6 + index, 3), scalar(pair.1, 6 + index, 6))
            })),
        ]))
    }

    func testFollowAndVoiceCommandsAreKeys() throws {
        let map = HotkeyMap(rig: try rig(keys: [("f", "follow on"), ("o", "follow off"), ("g", "voice guest mute"),
                                                ("u", "voice guest unmute"), ("+", "voice host gain +3dB")]))
        XCTAssertEqual(map.line(for: "f"), "follow on")
        XCTAssertEqual(map.line(for: "o"), "follow off")
        XCTAssertEqual(map.line(for: "g"), "voice guest mute")
        XCTAssertEqual(map.line(for: "u"), "voice guest unmute")
        XCTAssertEqual(map.line(for: "+"), "voice host gain +3dB")
        XCTAssertTrue(map.description.contains("  f      follow on"), map.description)
    }

    func testOnlyCommandsThatLetTimePassAreRefused() {
        for command in [Command.follow(true), .follow(false), .voice(name: "guest", change: .mute),
                        .voice(name: "guest", change: .unmute), .voice(name: "host", change: .gain(-6))] {
            XCTAssertNil(RigDecoder.keepsTheKeysWaiting(command), "\(command)")
        }
        XCTAssertThrowsError(try rig(keys: [("w", "wait 1s")]))
    }
}
