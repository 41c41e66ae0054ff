import XCTest
@testable import PauseCamCore

/// `osc:` decoded from trees laid out as their YAML text is written (`FlowLine`), each message pinned to its line
/// and column.
final class RigDecoderOscTests: XCTestCase {
    typealias T = RigDecoderTests

    /// The rig of `RigDecoderVoicesTests.rig` with `osc: OSC` written on line 6, the value at column 6.
    static func rig(osc: String) -> YAMLNode {
        var root = RigDecoderVoicesTests.rig()
        guard case .mapping(var pairs) = root.content else { preconditionFailure("the rig is a mapping") }
        pairs.append(YAMLNode.Pair(key: T.s("osc", 6, 1), value: FlowLine.value(osc, line: 6, column: 6)))
        root = YAMLNode(.mapping(pairs), at: root.mark)
        return root
    }

    func testGoodOscTable() throws {
        let rows: [(String, String, OSCSettings)] = [
            ("the defaults", "{}", OSCSettings()),
            ("a loopback port", "{listen: \"127.0.0.1:9100\"}",
             OSCSettings(listen: OSCPeer(host: "127.0.0.1", port: 9100))),
            ("localhost means 127.0.0.1", "{listen: \"localhost:9100\"}",
             OSCSettings(listen: OSCPeer(host: "127.0.0.1", port: 9100))),
            ("beyond loopback with an allow-list", "{listen: \"0.0.0.0:9000\", allow: [192.168.1.20, \"::1\"]}",
             OSCSettings(listen: OSCPeer(host: "0.0.0.0", port: 9000), allow: ["192.168.1.20", "::1"])),
            ("feedback destinations", "{feedback: [\"127.0.0.1:9001\", \"[::1]:9002\"]}",
             OSCSettings(feedback: [OSCPeer(host: "127.0.0.1", port: 9001), OSCPeer(host: "::1", port: 9002)])),
        ]
        for (label, text, expected) in rows {
            let rig = try RigDecoder.decode(Self.rig(osc: text))
            XCTAssertEqual(rig.osc, expected, label)
        }
        XCTAssertNil(try RigDecoder.decode(RigDecoderVoicesTests.rig()).osc)
    }

    func testBadOscTable() {
        let rows: [(String, [String])] = [
            ("{listen: \"0.0.0.0:9000\"}",
             ["t.yaml:6:15: osc.listen: listening on 0.0.0.0:9000 lets other machines drive the rig; name them with "
              + "allow: [ADDRESS, …] or listen on 127.0.0.1"]),
            ("{listen: \"studio:9000\"}",
             ["t.yaml:6:15: osc.listen: \"studio:9000\" is not an IP address and a port, such as 127.0.0.1:9000 or "
              + "[::1]:9000"]),
            ("{listen: \"127.0.0.1:70000\"}",
             ["t.yaml:6:15: osc.listen: \"127.0.0.1:70000\" is not an IP address and a port, such as 127.0.0.1:9000 "
              + "or [::1]:9000"]),
            ("{allow: [companion.local]}",
             ["t.yaml:6:15: osc.allow 1: \"companion.local\" is not an IP address such as 192.168.1.20"]),
            ("{feedback: [\"127.0.0.1:0\"]}",
             ["t.yaml:6:18: osc.feedback 1: \"127.0.0.1:0\" is not a host and port such as 127.0.0.1:9001"]),
            ("{feedback: \"127.0.0.1:9001\"}",
             ["t.yaml:6:17: osc.feedback: expected a list of addresses, found \"127.0.0.1:9001\""]),
            ("{listn: \"127.0.0.1:9000\"}", ["t.yaml:6:7: osc: unknown key \"listn\"; did you mean \"listen\"?"]),
        ]
        for (text, expected) in rows {
            XCTAssertEqual(T.messages(of: Self.rig(osc: text)), expected, text)
        }
    }
}
