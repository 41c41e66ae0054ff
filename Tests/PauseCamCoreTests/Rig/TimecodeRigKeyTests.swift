import XCTest
@testable import PauseCamCore

/// `timecode:` in a rig: the default, each start, and each error at its file position.
final class TimecodeRigKeyTests: XCTestCase {
    private typealias Tree = RigDecoderTests

    /// A rig whose `timecode:` mapping (at line 9) holds `start: value` at line 10.
    private func rig(start: String, key: String = "start") -> YAMLNode {
        Tree.rig(extra: [(Tree.s("timecode", 9, 1), Tree.m(10, 3, [(Tree.s(key, 10, 3), Tree.s(start, 10, 10))]))])
    }

    private func messages(_ node: YAMLNode) -> [String] {
        do {
            _ = try RigDecoder.decode(node)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    func testTheStartsAndTheDefault() throws {
        XCTAssertEqual(try RigDecoder.decode(Tree.rig()).timecode, .timeOfDay)
        XCTAssertEqual(try RigDecoder.decode(rig(start: "time_of_day")).timecode, .timeOfDay)
        XCTAssertEqual(try RigDecoder.decode(rig(start: "grid")).timecode, .grid)
        XCTAssertEqual(try RigDecoder.decode(rig(start: "01:00:00:00")).timecode, .fixed(label: "01:00:00:00"))
    }

    func testErrorsCarryTheirPositionTable() {
        let rows: [(YAMLNode, String)] = [
            (rig(start: "midnight"), "t.yaml:10:10: timecode.start: \"midnight\" is not one of time_of_day, grid or a "
                + "timecode such as \"01:00:00:00\""),
            (rig(start: "25:00:00:00"), "t.yaml:10:10: timecode.start: \"25:00:00:00\" is out of range: hours go to 23, "
                + "minutes and seconds to 59 and frames to 29 at 30 fps"),
            (rig(start: "01:00", key: "start"), "t.yaml:10:10: timecode.start: \"01:00\" is not a timecode; write "
                + "HH:MM:SS:FF, e.g. 01:00:00:00"),
            (rig(start: "grid", key: "begin"), "t.yaml:10:3: timecode: unknown key \"begin\" (expected one of: start)"),
        ]
        for (node, expected) in rows {
            let found = messages(node)
            XCTAssertTrue(found.contains { $0.hasPrefix(expected) }, "\(found) lacks \(expected)")
        }
    }
}
