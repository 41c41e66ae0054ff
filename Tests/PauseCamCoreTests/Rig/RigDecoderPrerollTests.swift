import XCTest
@testable import PauseCamCore

/// `preroll:` decoded from trees laid out as their YAML text is written (`FlowLine`), each message pinned to its line
/// and column.
final class RigDecoderPrerollTests: XCTestCase {
    typealias T = RigDecoderTests

    /// The rig of `RigDecoderVoicesTests.rig` with `preroll: VALUE` written on line 6, the value at column 10.
    static func rig(preroll: String) -> YAMLNode {
        var root = RigDecoderVoicesTests.rig()
        guard case .mapping(var pairs) = root.content else { preconditionFailure("the rig is a mapping") }
        pairs.append(YAMLNode.Pair(key: T.s("preroll", 6, 1), value: FlowLine.value(preroll, line: 6, column: 10)))
        root = YAMLNode(.mapping(pairs), at: root.mark)
        return root
    }

    func testGoodPrerollTable() throws {
        let rows: [(String, Rig.Preroll)] = [
            ("3s", Rig.Preroll(length: .seconds(3))),
            ("500ms", Rig.Preroll(length: .milliseconds(500))),
            ("{length: 2s, memory: 64 MiB}", Rig.Preroll(length: .seconds(2), memoryBytes: 64 << 20)),
            ("{length: 30s, memory: 2GiB}", Rig.Preroll(length: .seconds(30), memoryBytes: 2 << 30)),
            ("{length: 1s}", Rig.Preroll(length: .seconds(1))),
        ]
        for (text, expected) in rows {
            XCTAssertEqual(try RigDecoder.decode(Self.rig(preroll: text)).preroll, expected, text)
        }
        XCTAssertNil(try RigDecoder.decode(RigDecoderVoicesTests.rig()).preroll)
    }

    func testBadPrerollTable() {
        let rows: [(String, [String])] = [
            ("0s", ["t.yaml:6:10: preroll: duration 0s is out of range (more than 0, at most 30s)"]),
            ("31s", ["t.yaml:6:10: preroll: duration 31s is out of range (more than 0, at most 30s)"]),
            ("50ms", ["t.yaml:6:10: preroll: preroll 50ms is shorter than a few frames; write 100ms to 30s"]),
            ("soon", ["t.yaml:6:10: preroll: \"soon\" is not a duration (try 2s, 400ms, 1/30)"]),
            ("{memory: 64 MiB}", ["t.yaml:6:10: preroll: missing required key \"length\""]),
            ("{length: 3s, memory: 8 MiB}",
             ["t.yaml:6:31: preroll.memory: expected a memory from 16 MiB to 16 GiB (e.g. 256 MiB), found \"8 MiB\""]),
            ("{length: 3s, memory: 99 GiB}",
             ["t.yaml:6:31: preroll.memory: expected a memory from 16 MiB to 16 GiB (e.g. 256 MiB), found \"99 GiB\""]),
            ("{length: 3s, memory: 300MB}",
             ["t.yaml:6:31: preroll.memory: expected a memory from 16 MiB to 16 GiB (e.g. 256 MiB), found \"300MB\""]),
            ("{length: 3s, size: 1}", ["t.yaml:6:23: preroll: unknown key \"size\" (expected one of: length, memory)"]),
        ]
        for (text, expected) in rows {
            XCTAssertEqual(T.messages(of: Self.rig(preroll: text)), expected, text)
        }
    }
}
